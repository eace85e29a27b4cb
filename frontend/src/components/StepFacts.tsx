import type { Size, Step } from "../api/types";
import { candidateText } from "../trace/boxes";
import { miscapture } from "../trace/capture";
import { diffSamples } from "../trace/diff";
import { Help } from "./Help";

const fmt = (d: number) => d.toFixed(3);

/** An action class and an admission in plain words, beside their terms. */
const CLASS_WORDS: Record<Step["decision"]["class"], string> = {
  observe: "reads only",
  prepare: "fills in, saves nothing",
  commit: "saves or sends",
  explore: "moves around",
  destruct: "deletes or cannot be undone",
};
const ADMISSION_WORDS: Record<Step["decision"]["admission"], string> = { allow: "let through", hold: "held", deny: "refused" };

/**
 * The chosen step in one line: when it started, how long it took, how much the page changed,
 * the decision; then its error, a capture taken at another size than the attempt's viewport,
 * and the nearest elements to a target that matched nothing.
 */
export function StepFacts({ step, viewport }: { step: Step; viewport?: Size }) {
  const wrongSize = miscapture(step, viewport);
  const recomputed = diffSamples(step.before, step.after).distance;
  const differs = Math.abs(recomputed - step.distance) > 0.0005;
  return (
    <dl className="facts">
      <div><dt>Start</dt><dd className="num">{step.start_ms} ms</dd></div>
      <div><dt>Duration</dt><dd className="num">{step.duration_ms} ms</dd></div>
      <div>
        <dt>Jaccard distance <Help term="jaccard" topic="the Jaccard distance" /></dt>
        <dd className="num" data-testid="distance">
          {fmt(step.distance)}
          {differs && <span className="warn"> (samples give {fmt(recomputed)})</span>}
        </dd>
        <dd className="muted">{Math.round(step.distance * 100)} % of the page's elements changed</dd>
      </div>
      <div>
        <dt>Decision <Help term="decision" topic="a decision such as commit · allow" /></dt>
        {step.decision.class && step.decision.admission ? (
          <>
            <dd>{step.decision.class} · {step.decision.admission}</dd>
            <dd className="muted">
              {CLASS_WORDS[step.decision.class] ?? step.decision.class}, {ADMISSION_WORDS[step.decision.admission] ?? step.decision.admission}
            </dd>
          </>
        ) : (
          <dd className="muted" data-testid="no-decision">
            {step.provenance === "observed" ? "none: an outside agent took this action, observed in the page" : "none recorded"}
          </dd>
        )}
      </div>
      {step.error && <div className="error"><dt>Error</dt><dd><span role="alert">{step.error}</span></dd></div>}
      {wrongSize && <div className="error" data-testid="miscapture"><dt>Capture</dt><dd>{wrongSize}</dd></div>}
      {step.candidates && step.candidates.length > 0 && (
        <div className="nearest">
          <dt>Nearest <Help term="nearest" topic="a near miss" /></dt>
          <dd>
            <ol aria-label="Nearest elements">
              {step.candidates.map((c, i) => <li key={i}>{candidateText(c)}</li>)}
            </ol>
          </dd>
        </div>
      )}
    </dl>
  );
}
