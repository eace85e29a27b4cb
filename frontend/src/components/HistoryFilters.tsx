import { useId } from "react";
import type { RunStatus } from "../api/types";
import { ALL, type HistoryQuery } from "../history/filter";

/** The run statuses a run can have, as the filter offers them. */
const STATUSES: RunStatus[] = ["finished", "cancelled", "interrupted", "imported", "running"];

/** Props of HistoryFilters. */
export interface HistoryFiltersProps {
  query: HistoryQuery;
  /** The task names the history holds. */
  tasks: string[];
  onQuery(q: HistoryQuery): void;
}

/** The history's search box, filters and sort order. */
export function HistoryFilters({ query, tasks, onQuery }: HistoryFiltersProps) {
  const id = useId();
  const set = <K extends keyof HistoryQuery>(k: K, v: HistoryQuery[K]) => onQuery({ ...query, [k]: v });
  return (
    <div className="history-filters">
      <input type="search" aria-label="Search runs" placeholder="Search id, task, file…" value={query.text} onChange={(e) => set("text", e.target.value)} />
      <div className="filter-grid">
        <label htmlFor={`${id}-sort`}>Sort</label>
        <select id={`${id}-sort`} value={query.sort} onChange={(e) => set("sort", e.target.value as HistoryQuery["sort"])}>
          <option value="added">newest added</option>
          <option value="created">newest started</option>
        </select>
        <label htmlFor={`${id}-status`}>Status</label>
        <select id={`${id}-status`} value={query.status} onChange={(e) => set("status", e.target.value as HistoryQuery["status"])}>
          <option value="">any</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>{s}</option>
          ))}
        </select>
        <label htmlFor={`${id}-task`}>Task</label>
        <select id={`${id}-task`} value={query.task} onChange={(e) => set("task", e.target.value)}>
          <option value="">any</option>
          {tasks.map((t) => (
            <option key={t} value={t}>{t}</option>
          ))}
        </select>
        <label htmlFor={`${id}-origin`}>Source</label>
        <select id={`${id}-origin`} value={query.origin} onChange={(e) => set("origin", e.target.value as HistoryQuery["origin"])}>
          <option value="">any</option>
          <option value="live">run here</option>
          <option value="imported">imported</option>
        </select>
      </div>
      <div className="filter-row">
        <label>
          <input type="checkbox" checked={query.wrongOnly} onChange={(e) => set("wrongOnly", e.target.checked)} /> with wrong attempts
        </label>
        <button type="button" className="link" onClick={() => onQuery(ALL)} disabled={JSON.stringify(query) === JSON.stringify(ALL)}>
          Clear
        </button>
      </div>
    </div>
  );
}
