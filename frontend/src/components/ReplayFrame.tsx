import type { Frame } from "../api/types";
import { StateView } from "./StateView";

/** One rebuilt frame: the event that led to it and the app's state after it. */
export function ReplayFrame({ frame }: { frame: Frame }) {
  return (
    <section aria-label="Event">
      <h3>Event</h3>
      {frame.event ? (
        <dl className="kv" data-testid="replay-event">
          <div><dt>seq</dt><dd className="num">{frame.event.seq}</dd></div>
          <div><dt>type</dt><dd>{frame.event.type}</dd></div>
          <div><dt>at</dt><dd className="num">{frame.event.at_ms} ms</dd></div>
          {Object.entries(frame.event.data ?? {}).map(([k, v]) => (
            <div key={k}><dt>{k}</dt><dd>{v}</dd></div>
          ))}
        </dl>
      ) : (
        <p className="muted">Initial state, before any event.</p>
      )}
      <h3>State</h3>
      <StateView state={frame.state} label="Rebuilt state" />
    </section>
  );
}
