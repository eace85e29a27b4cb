import { useId, useState } from "react";
import type { NetRequest } from "../api/types";
import { bytes, failed, filterRequests, outcome, shortURL, type StatusFilter } from "../trace/network";
import { Help } from "./Help";
import { RequestDetail } from "./RequestDetail";

/** Props of NetworkPanel. */
export interface NetworkPanelProps {
  requests: NetRequest[];
  /** How many requests the recording limits left out of the step. */
  dropped?: number;
}

/**
 * A step's requests: a text filter and a status filter above a list (a listbox: ↑/↓,
 * Home/End and a click choose a request; the first failed one is chosen at first), failed
 * ones marked in words, and the chosen request in full beside it.
 */
export function NetworkPanel({ requests, dropped = 0 }: NetworkPanelProps) {
  const [filter, setFilter] = useState("");
  const [status, setStatus] = useState<StatusFilter>("all");
  // The first failed request is what one opens the tab for: it is chosen until the user picks.
  const [chosen, setChosen] = useState(() => Math.max(0, requests.findIndex(failed)));
  const base = useId();
  const shown = filterRequests(requests, filter, status);
  const k = Math.min(chosen, shown.length - 1);
  const nFailed = requests.filter(failed).length;
  return (
    <div className="network">
      <p className="tab-note muted">
        Requests this step sent <Help term="network" topic="the network record" />; {nFailed} failed{" "}
        <Help term="failedRequest" topic="a failed request" />.
      </p>
      <div className="filters">
        <label>
          Filter <input type="search" value={filter} placeholder="method, URL, status, type" onChange={(e) => setFilter(e.target.value)} />
        </label>
        <label>
          Status{" "}
          <select value={status} onChange={(e) => setStatus(e.target.value as StatusFilter)}>
            <option value="all">All</option>
            <option value="failed">Failed (no answer, 4xx or 5xx)</option>
            <option value="http-error">Answered 4xx–5xx</option>
          </select>
        </label>
        <span className="muted num" aria-live="polite">
          {shown.length} of {requests.length}
        </span>
      </div>
      {requests.length === 0 ? (
        <p className="muted">This step sent no request.</p>
      ) : shown.length === 0 ? (
        <p className="muted">No request matches the filters.</p>
      ) : (
        <div className="network-body">
          <ul
            className="requests"
            role="listbox"
            aria-label="Requests"
            tabIndex={0}
            aria-activedescendant={`${base}-${k}`}
            onKeyDown={(e) => {
              const to = { ArrowUp: k - 1, ArrowDown: k + 1, Home: 0, End: shown.length - 1 }[e.key];
              if (to === undefined) return;
              e.preventDefault();
              setChosen(Math.max(0, Math.min(shown.length - 1, to)));
            }}
          >
            {shown.map((r, j) => (
              <li
                key={j}
                id={`${base}-${j}`}
                role="option"
                aria-selected={j === k}
                className={failed(r) ? "failed" : undefined}
                onClick={() => setChosen(j)}
                title={r.url}
              >
                <span className="method">{r.method}</span>
                <span className="outcome">{r.failure ? "failed" : (r.status ?? "—")}</span>
                <span className="url">{shortURL(r.url)}</span>
                <span className="muted">{r.resource_type}</span>
                <span className="muted num">{r.duration_ms} ms</span>
                <span className="muted num">{bytes(r.size)}</span>
                {failed(r) && <span className="tag failed-tag">failed: {outcome(r)}</span>}
              </li>
            ))}
          </ul>
          <RequestDetail request={shown[k]} />
        </div>
      )}
      {dropped > 0 && (
        <p className="muted">
          {dropped} more {dropped === 1 ? "request" : "requests"} dropped <Help term="dropped" topic="dropped items" />
        </p>
      )}
    </div>
  );
}
