// Which runs of the history to list and in what order: a text search over id, task and source,
// filters by status, wrong attempts, task and source, sorted by when each run started or was
// added to this history. Pure.
import type { RunStatus, RunSummary } from "../api/types";

/** Where a run came from: made here, or imported from a file. */
export type Origin = "live" | "imported";

/** What the user asked the history for. */
export interface HistoryQuery {
  text: string;
  status: RunStatus | "";
  /** Only runs with at least one wrong attempt. */
  wrongOnly: boolean;
  task: string;
  origin: Origin | "";
  sort: "added" | "created";
}

/** The query that lists everything, newest added first. */
export const ALL: HistoryQuery = { text: "", status: "", wrongOnly: false, task: "", origin: "", sort: "added" };

/** True for a run that came from a file rather than from this machine. */
export function isImported(r: Pick<RunSummary, "source" | "status">): boolean {
  return r.status === "imported" || r.source !== "live";
}

/** The runs q lets through, newest first by q.sort. */
export function queryRuns(runs: RunSummary[], q: HistoryQuery): RunSummary[] {
  const text = q.text.trim().toLowerCase();
  return runs
    .filter(
      (r) =>
        (!text || [r.id, r.task, r.source].some((s) => s.toLowerCase().includes(text))) &&
        (!q.status || r.status === q.status) &&
        (!q.wrongOnly || r.wrong > 0) &&
        (!q.task || r.task === q.task) &&
        (!q.origin || (q.origin === "imported") === isImported(r)),
    )
    .map((r) => ({ r, at: Date.parse(r[q.sort]) })) // each time parsed once, not per comparison
    .sort((a, b) => b.at - a.at || b.r.id.localeCompare(a.r.id))
    .map(({ r }) => r);
}
