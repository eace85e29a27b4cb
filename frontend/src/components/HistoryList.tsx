import { useCallback, useMemo, useRef, useState, type ReactNode } from "react";
import type { RunSummary } from "../api/types";
import { visibleRows } from "../layout/rows";
import { useElementSize } from "../layout/useElementSize";
import { ALL, queryRuns, type HistoryQuery } from "../history/filter";
import { HistoryEntry } from "./HistoryEntry";
import { HistoryFilters } from "./HistoryFilters";

/** Props of HistoryList. */
export interface HistoryListProps {
  runs: RunSummary[];
  current: string | null;
  onOpen(id: string): void;
  onDelete(id: string): void;
  /** Compares two runs, the one picked first as A. */
  onCompare(a: string, b: string): void;
  /** Shows a suite run. */
  onOpenSuite(id: string): void;
  /** The splitter that resizes the list, drawn along its left edge. */
  resizer: ReactNode;
}

/** Each entry's height in px: entries are drawn only where the list is scrolled to. */
export const ENTRY_HEIGHT = 76;

/**
 * The stored runs, searched, filtered and sorted as the user asks. Two runs picked with their
 * boxes are compared by the Compare button; picking a third lets the first go. Only the
 * entries in view are drawn: a history of thousands of runs draws a dozen or two.
 */
export function HistoryList({ runs, current, onOpen, onDelete, onCompare, onOpenSuite, resizer }: HistoryListProps) {
  const [query, setQuery] = useState<HistoryQuery>(ALL);
  const [picked, setPicked] = useState<string[]>([]);
  const pick = useCallback(
    (id: string, on: boolean) => setPicked((p) => (on ? [...p.filter((x) => x !== id), id].slice(-2) : p.filter((x) => x !== id))),
    [],
  );
  const present = picked.filter((id) => runs.some((r) => r.id === id));
  const shown = useMemo(() => queryRuns(runs, query), [runs, query]);
  // The list's height is measured before its first paint and on every resize, so that a tall
  // window draws every entry it can show and a short one only those.
  const scroller = useRef<HTMLDivElement>(null);
  const { height } = useElementSize(scroller);
  const [top, setTop] = useState(0);
  const [first, last] = visibleRows(top, height, shown.length, ENTRY_HEIGHT);
  const tasks = useMemo(() => [...new Set(runs.map((r) => r.task))].sort(), [runs]);
  return (
    <nav className="history" aria-label="Run history">
      {resizer}
      <div className="panel history-body">
        <div className="panel-head">
          <h2>History</h2>
          <span className="muted num" role="status">
            {shown.length === runs.length ? "" : `${shown.length} of `}
            {runs.length} run{runs.length === 1 ? "" : "s"}
          </span>
        </div>
        <HistoryFilters query={query} tasks={tasks} onQuery={setQuery} />
        <div className="compare-bar">
          <button type="button" disabled={present.length !== 2} onClick={() => onCompare(present[0], present[1])}>
            Compare
          </button>
          <span className="muted">{present.length === 2 ? "the two picked runs" : `pick ${2 - present.length} more run${present.length === 1 ? "" : "s"} to compare`}</span>
        </div>
        {runs.length === 0 ? (
          <p className="muted">No runs yet.</p>
        ) : shown.length === 0 ? (
          <p className="muted">No run matches.</p>
        ) : (
          <div className="history-scroll" ref={scroller} onScroll={(e) => setTop(e.currentTarget.scrollTop)}>
            <ul className="history-runs" style={{ height: shown.length * ENTRY_HEIGHT }}>
              {shown.slice(first, last).map((r, k) => (
                <HistoryEntry
                  key={r.id}
                  run={r}
                  top={(first + k) * ENTRY_HEIGHT}
                  current={r.id === current}
                  onOpen={onOpen}
                  onDelete={onDelete}
                  picked={present.includes(r.id)}
                  onPick={pick}
                  onOpenSuite={onOpenSuite}
                />
              ))}
            </ul>
          </div>
        )}
      </div>
    </nav>
  );
}
