import { useEffect, useState } from "react";
import type { AttemptRequest, AttemptRequests } from "../api/types";
import { errorText } from "../api/client";
import { bytes, failed, outcome, shortURL } from "../trace/network";
import { KINDS, kindOf, tableRows, type Kind, type Sort, type SortKey } from "../trace/requests";
import { Help } from "./Help";
import { RequestDetail } from "./RequestDetail";

/** Props of AttemptNetwork. */
export interface AttemptNetworkProps {
  runId: string;
  slug: string;
  /** Loads every step's requests of the attempt. */
  load(runId: string, slug: string): Promise<AttemptRequests>;
  /** Shows a step of the attempt, by its position. */
  onStep(k: number): void;
}

/** The most rows drawn at once; filtering narrows the rest. */
export const MAX_ROWS = 300;

/** The table's columns: their sort key and heading. */
const COLUMNS: { key: SortKey; label: string; className?: string }[] = [
  { key: "step", label: "Step", className: "num" },
  { key: "method", label: "Method" },
  { key: "status", label: "Status" },
  { key: "kind", label: "Type" },
  { key: "url", label: "URL" },
  { key: "start", label: "Started", className: "num" },
  { key: "duration", label: "Took", className: "num" },
  { key: "size", label: "Size", className: "num" },
];

/**
 * The whole attempt's requests in one table, loaded when shown: a text filter, a filter by
 * kind (Fetch/XHR, document, script, style, image, other) and failed-first, on by default;
 * every column sorts, either way, by its heading. Choosing a request shows it in full beside
 * the table, and its step number shows that step.
 */
export function AttemptNetwork({ runId, slug, load, onStep }: AttemptNetworkProps) {
  const [data, setData] = useState<AttemptRequests | null>(null);
  const [error, setError] = useState("");
  const [text, setText] = useState("");
  const [kind, setKind] = useState<Kind>("all");
  const [sort, setSort] = useState<Sort>({ key: "step", descending: false, failedFirst: true });
  const [chosen, setChosen] = useState<AttemptRequest | null>(null);
  useEffect(() => {
    let live = true;
    setData(null);
    setError("");
    load(runId, slug).then(
      (d) => live && setData(d),
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [load, runId, slug]);
  if (error) return <p role="alert">Could not load the attempt's requests: {error}</p>;
  if (!data) return <p className="muted">Loading the attempt's requests…</p>;
  const all = data.requests;
  const rows = tableRows(all, text, kind, sort);
  const shown = chosen && rows.includes(chosen) ? chosen : rows[0];
  const nFailed = all.filter(failed).length;
  const sortBy = (key: SortKey) => setSort((s) => ({ ...s, key, descending: s.key === key ? !s.descending : false }));
  return (
    <div className="network attempt-network">
      <p className="tab-note muted">
        Every step's requests <Help term="network" topic="the network record" />; {nFailed} failed <Help term="failedRequest" topic="a failed request" />.
        {data.dropped ? ` ${data.dropped} more left out by the recording's limits.` : ""}
      </p>
      <div className="filters">
        <label>
          Filter <input type="search" value={text} placeholder="method, URL, status, step 3" onChange={(e) => setText(e.target.value)} />
        </label>
        <div role="group" aria-label="Type" className="segmented">
          {KINDS.map((k) => (
            <button key={k.id} type="button" aria-pressed={kind === k.id} onClick={() => setKind(k.id)}>
              {k.label}
            </button>
          ))}
        </div>
        <label>
          <input type="checkbox" checked={sort.failedFirst} onChange={(e) => setSort((s) => ({ ...s, failedFirst: e.target.checked }))} /> Failed first
        </label>
        <span className="muted num" aria-live="polite">
          {rows.length} of {all.length}
        </span>
      </div>
      {all.length === 0 ? (
        <p className="muted">The attempt recorded no request.</p>
      ) : rows.length === 0 ? (
        <p className="muted">No request matches the filters.</p>
      ) : (
        <div className="network-body">
          <div className="request-table">
            <table className="mini">
              <caption className="sr-only">The attempt's requests</caption>
              <thead>
                <tr>
                  {COLUMNS.map((c) => (
                    <th key={c.key} scope="col" aria-sort={sort.key === c.key ? (sort.descending ? "descending" : "ascending") : undefined}>
                      <button type="button" className="sort" onClick={() => sortBy(c.key)}>
                        {c.label}
                        {sort.key === c.key && <span aria-hidden="true">{sort.descending ? " ▼" : " ▲"}</span>}
                      </button>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.slice(0, MAX_ROWS).map((r, j) => (
                  <tr key={j} className={[failed(r) && "failed", r === shown && "chosen"].filter(Boolean).join(" ") || undefined}>
                    <td className="num">
                      <button type="button" className="link" title={`Show step ${r.step + 1}`} onClick={() => onStep(r.step)}>
                        {r.step + 1}
                      </button>
                    </td>
                    <td>{r.method}</td>
                    <td className="outcome">{r.failure ? "failed" : (r.status ?? "—")}</td>
                    <td>{kindOf(r)}</td>
                    <td className="url">
                      <button type="button" className="link" title={r.url} aria-current={r === shown ? "true" : undefined} onClick={() => setChosen(r)}>
                        {shortURL(r.url)}
                      </button>
                    </td>
                    <td className="num">{r.start_ms} ms</td>
                    <td className="num">{r.duration_ms} ms</td>
                    <td className="num" title={r.size < 0 ? "the page never read the answer's body, so its size is not known" : undefined}>
                      {bytes(r.size)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {rows.length > MAX_ROWS && (
              <p className="muted">
                The first {MAX_ROWS} of {rows.length} are shown; filter to narrow them.
              </p>
            )}
          </div>
          {shown && (
            <div>
              <p className="muted">
                {failed(shown) ? `Failed: ${outcome(shown)}` : outcome(shown)}, in step {shown.step + 1}
              </p>
              <RequestDetail request={shown} />
            </div>
          )}
        </div>
      )}
    </div>
  );
}
