import { useState } from "react";
import type { EndpointHealth } from "../api/types";
import { Help } from "./Help";
import { errorText } from "../api/client";

/** Props of EndpointsSection. */
export interface EndpointsSectionProps {
  /** Checks every endpoint now (Browsers.Health). */
  onCheck(): Promise<EndpointHealth[]>;
}

/**
 * The browser endpoints runs started here use (Chromium launched here, or the browser servers
 * and CDP endpoints given on the command line) with their health as of the last check: whether
 * a browser connects, its version, the attempts running there and whether its pages can be
 * watched live. Checking launches or connects, so it runs only when asked.
 */
export function EndpointsSection({ onCheck }: EndpointsSectionProps) {
  const [health, setHealth] = useState<EndpointHealth[] | null>(null);
  const [state, setState] = useState<{ checking: boolean; error?: string }>({ checking: false });
  const check = async () => {
    setState({ checking: true });
    try {
      setHealth(await onCheck());
      setState({ checking: false });
    } catch (e) {
      setState({ checking: false, error: errorText(e) });
    }
  };
  return (
    <fieldset className="endpoints">
      <legend>
        Browser endpoints <Help term="endpoint" topic="a browser endpoint" />
      </legend>
      <button type="button" onClick={check} disabled={state.checking}>
        {state.checking ? "Checking…" : health ? "Check again" : "Check endpoints"}
      </button>
      <span role="status" className="muted">
        {state.error ? `The check failed: ${state.error}` : state.checking ? "connecting to each endpoint…" : ""}
      </span>
      {health && (
        <table className="endpoint-table">
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              <th scope="col">Connects</th>
              <th scope="col">Browser version</th>
              <th scope="col">Running now</th>
              <th scope="col">Live view</th>
            </tr>
          </thead>
          <tbody>
            {health.map((h) => (
              <tr key={h.name} data-testid={`endpoint-${h.kind}`}>
                <th scope="row">{h.name}</th>
                <td className={h.connects ? "ok" : "wrong"}>{h.connects ? `yes (${h.check_ms} ms)` : `no: ${h.error ?? "no reason given"}`}</td>
                <td>{h.version ?? "—"}</td>
                <td className="num">{h.running}</td>
                <td>{h.connects ? (h.live ? "yes" : "no: it offers no DevTools session") : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </fieldset>
  );
}
