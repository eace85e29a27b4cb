import type { Replay } from "../api/types";
import { COLUMNS, verdictCells, type JudgedKey } from "../verdicts";
import { GateChecklist } from "./GateChecklist";
import { StateView } from "./StateView";

/** Props of ReplayPanel. */
export interface ReplayPanelProps {
  title: string;
  replay: Replay;
  /** The shown frame. */
  index: number;
  onIndex(i: number): void;
}

/** The verdict columns of the attempts table, without the terminal state. */
const JUDGED = COLUMNS.filter((c): c is (typeof COLUMNS)[number] & { key: JudgedKey } => c.key !== "terminal");

/** A slider over the frames rebuilt from a run's events; the last shows the recomputed verdicts. */
export function ReplayPanel({ title, replay, index, onIndex }: ReplayPanelProps) {
  const frames = replay.frames ?? [];
  const last = frames.length - 1;
  const i = Math.max(0, Math.min(index, last));
  const frame = frames[i];
  const recomputed = verdictCells(replay.recomputed);
  const recorded = verdictCells(replay.recorded);
  return (
    <section className="panel replay" aria-label="Replay">
      <div className="panel-head">
        <h2>Replay: {title}</h2>
        <span className="muted">rebuilt from the file's events; verdicts recomputed, not trusted</span>
      </div>
      {frames.length === 0 ? (
        <p className="muted">The run has no events to replay.</p>
      ) : (
        <>
          <label className="slider">
            <span className="num">
              Frame {i + 1} of {frames.length}
            </span>
            <input
              type="range"
              aria-label="Replay frame"
              min={0}
              max={last}
              value={i}
              onChange={(e) => onIndex(e.target.valueAsNumber)}
            />
          </label>
          <div className="replay-cols">
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
            <GateChecklist heading="Completion gate at this frame" conditions={frame.gate.conditions} />
            {i < last && <p className="muted">Move to the last frame to see the recomputed verdicts.</p>}
            {i === last && (
              <section aria-label="Recomputed verdicts">
                <h3>Recomputed verdicts</h3>
                <table className="mini">
                  <thead>
                    <tr><th scope="col">Verdict</th><th scope="col">Recomputed</th><th scope="col">File said</th></tr>
                  </thead>
                  <tbody>
                    {JUDGED.map(({ key, label }) => {
                      const now = recomputed[key];
                      const then = recorded[key];
                      const differs = now.text !== then.text;
                      return (
                        <tr key={key} className={differs ? "wrong" : undefined}>
                          <th scope="row">{label}</th>
                          <td>
                            {now.text}
                            {now.wrong && <span className="tag-wrong">wrong</span>}
                          </td>
                          <td>
                            {then.text}
                            {differs && <span className="tag-disagree">disagrees</span>}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </section>
            )}
          </div>
        </>
      )}
    </section>
  );
}
