import { isImported } from "../state/useWorkbench";
import type { RunSummary } from "../api/types";

/** Props of HistoryList. */
export interface HistoryListProps {
  runs: RunSummary[];
  current: string | null;
  onOpen(id: string): void;
}

/** The stored runs, newest first; imported ones are marked. */
export function HistoryList({ runs, current, onOpen }: HistoryListProps) {
  return (
    <nav className="panel history" aria-label="Run history">
      <h2>History</h2>
      {runs.length === 0 ? (
        <p className="muted">No runs yet.</p>
      ) : (
        <ul>
          {runs.map((r) => (
            <li key={r.id}>
              <button type="button" aria-current={r.id === current ? "true" : undefined} onClick={() => onOpen(r.id)}>
                <span className="num">{new Date(r.created).toLocaleString()}</span>
                {isImported(r) ? <span className="tag">imported</span> : <span className="tag plain">{r.status}</span>}
                <span className="muted num">
                  {r.completed}/{r.attempts} completed · {r.wrong} wrong
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
