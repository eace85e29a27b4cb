import type { Step } from "../api/types";
import { diffSamples } from "../trace/diff";
import { DiffView } from "./DiffView";
import { SampleView } from "./SampleView";

const fmt = (d: number) => d.toFixed(3);

/** One observed step: timings, the decision, the error, the samples side by side and their diff. */
export function StepDetail({ step, runId }: { step: Step; runId: string }) {
  const diff = diffSamples(step.before, step.after);
  const recomputedDiffers = Math.abs(diff.distance - step.distance) > 0.0005;
  return (
    <div className="step-detail">
      <dl className="facts">
        <div><dt>Start</dt><dd className="num">{step.start_ms} ms</dd></div>
        <div><dt>Duration</dt><dd className="num">{step.duration_ms} ms</dd></div>
        <div>
          <dt>Role-set Jaccard distance</dt>
          <dd className="num" data-testid="distance">
            {fmt(step.distance)}
            {recomputedDiffers && <span className="warn"> (samples give {fmt(diff.distance)})</span>}
          </dd>
        </div>
        <div><dt>Decision</dt><dd>{step.decision.class} · {step.decision.admission} — {step.decision.reason}</dd></div>
        {step.reason && <div><dt>Planner's reason</dt><dd>{step.reason}</dd></div>}
        {step.resolved && step.action.target.alias === step.resolved && (
          <div><dt>Resolved</dt><dd>by alias “{step.resolved}”</dd></div>
        )}
        {step.blocked && step.blocked.length > 0 && (
          <div><dt>Blocked requests</dt><dd>{step.blocked.join(", ")}</dd></div>
        )}
        {step.error && <div className="error"><dt>Error</dt><dd role="alert">{step.error}</dd></div>}
      </dl>
      <div className="samples">
        <SampleView heading="Before" sample={step.before} runId={runId} />
        <SampleView heading="After" sample={step.after} runId={runId} />
        <section className="sample" aria-label="Diff">
          <h4>Diff</h4>
          <DiffView diff={diff} />
        </section>
      </div>
    </div>
  );
}
