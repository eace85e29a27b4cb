import { useEffect, useState } from "react";
import type { LedgerEntry } from "../api/types";
import { Help } from "./Help";
import { errorText } from "../api/client";

/** Props of LedgerPanel. */
export interface LedgerPanelProps {
  runId: string;
  slug: string;
  /** Loads an attempt's ledger from the backend. */
  load(runId: string, slug: string): Promise<LedgerEntry[]>;
  /** Saves the ledger as CSV where the user chooses. */
  onExport(): void;
}

/**
 * An attempt's action ledger as a table, one row per step: intent, target, principal,
 * observation time and fingerprint, the harness's decision, the result and how it was
 * verified; with a button that exports it as CSV.
 */
export function LedgerPanel({ runId, slug, load, onExport }: LedgerPanelProps) {
  const [entries, setEntries] = useState<LedgerEntry[] | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    let live = true;
    setEntries(null);
    setError("");
    load(runId, slug).then(
      (e) => live && setEntries(e),
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [load, runId, slug]);
  return (
    <>
      <p className="tab-note muted">
        One row per step, for an audit <Help term="ledger" topic="the action ledger" />; each is decided on an observation's fingerprint{" "}
        <Help term="fingerprint" topic="a fingerprint" />.{" "}
        <button type="button" onClick={onExport} disabled={!entries}>
          Export CSV
        </button>
      </p>
      {error ? (
        <p role="alert">Could not load the ledger: {error}</p>
      ) : !entries ? (
        <p className="muted">Loading the ledger…</p>
      ) : entries.length === 0 ? (
        <p className="muted">The attempt took no step.</p>
      ) : (
        <table className="ledger">
          <caption className="sr-only">Action ledger</caption>
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col">Intent</th>
              <th scope="col">Target</th>
              <th scope="col">Principal</th>
              <th scope="col">Observed</th>
              <th scope="col">Fingerprint</th>
              <th scope="col">Decision</th>
              <th scope="col">Result</th>
              <th scope="col">Verification</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.step}>
                <td>{e.step}</td>
                <td>{e.intent}</td>
                <td>
                  <code>{e.target}</code>
                </td>
                <td>{e.principal || <span className="muted">not declared</span>}</td>
                <td>{e.observed_ms} ms</td>
                <td>
                  <code>{e.fingerprint}</code>
                </td>
                <td title={e.reason}>
                  {[e.class, e.risk && `${e.risk} risk`, e.decision].filter(Boolean).join(" · ")}
                  <div className="muted">{e.reason}</div>
                </td>
                <td>{e.result}</td>
                <td>{e.verification}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
