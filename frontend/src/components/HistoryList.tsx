import type { ReactNode } from "react";
import type { RunSummary } from "../api/types";
import { isImported } from "../state/useWorkbench";

/** Props of HistoryList. */
export interface HistoryListProps {
  runs: RunSummary[];
  current: string | null;
  onOpen(id: string): void;
  /** The splitter that resizes the list, drawn along its left edge. */
  resizer: ReactNode;
}

/** The stored runs, newest first; imported ones are marked. */
export function HistoryList({ runs, current, onOpen, resizer }: HistoryListProps) {
  return (
    <nav className="history" aria-label="Run history">
      {resizer}
      <div className="panel history-body">
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
      </div>
    </nav>
  );
}
