import type { Replay } from "../api/types";
import type { Column } from "../verdicts";
import { GateChecklist } from "./GateChecklist";
import { RecomputedVerdicts } from "./RecomputedVerdicts";
import { ReplayFrame } from "./ReplayFrame";

/** Props of ReplayPanel. */
export interface ReplayPanelProps {
  title: string;
  replay: Replay;
  columns: Column[];
  /** The shown frame. */
  index: number;
  onIndex(i: number): void;
}

/**
 * A slider over the frames rebuilt from a run's events; the last shows the recomputed
 * verdicts. A task whose app keeps no event log has no frames: its conditions, recomputed from
 * the recorded answers, show without a slider.
 */
export function ReplayPanel({ title, replay, columns, index, onIndex }: ReplayPanelProps) {
  const frames = replay.frames ?? [];
  const last = frames.length - 1;
  const i = Math.max(0, Math.min(index, last));
  const frame = frames[i];
  return (
    <section className="replay" aria-label="Replay">
      <p className="tab-note">
        <strong>Replay: {title}</strong> <span className="muted">verdicts recomputed from the file's evidence, not trusted</span>
      </p>
      {frames.length === 0 ? (
        <div className="replay-cols">
          <p className="muted">This task's app keeps no event log, so there are no frames to step through; its conditions are recomputed from the recorded answers.</p>
          <GateChecklist heading="Recomputed completion gate" conditions={replay.recomputed.gate.conditions} />
          <RecomputedVerdicts replay={replay} columns={columns} />
        </div>
      ) : (
        <>
          <label className="slider">
            <span className="num">
              Frame {i + 1} of {frames.length}
            </span>
            <input type="range" aria-label="Replay frame" min={0} max={last} value={i} onChange={(e) => onIndex(e.target.valueAsNumber)} />
          </label>
          <div className="replay-cols">
            <ReplayFrame frame={frame} />
            <GateChecklist heading="Completion gate at this frame" conditions={frame.gate.conditions} />
            {i < last ? <p className="muted">Move to the last frame to see the recomputed verdicts.</p> : <RecomputedVerdicts replay={replay} columns={columns} />}
          </div>
        </>
      )}
    </section>
  );
}
