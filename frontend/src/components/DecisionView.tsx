import type { Step } from "../api/types";
import { actionText } from "../trace/target";

/** Everything about a step's proposal and the harness's decision on it, kept apart. */
export function DecisionView({ step }: { step: Step }) {
  const d = step.decision;
  return (
    <dl className="kv">
      <div><dt>Proposed</dt><dd><code>{actionText(step.action)}</code>{step.action.secret && <span className="tag plain">secret, masked</span>}</dd></div>
      <div><dt>Planner's reason</dt><dd>{step.reason || <span className="muted">none given (a scripted plan)</span>}</dd></div>
      <div><dt>Class</dt><dd>{d.class}</dd></div>
      <div><dt>Admission</dt><dd>{d.admission}</dd></div>
      <div><dt>Why</dt><dd>{d.reason}</dd></div>
      {d.fingerprint && <div><dt>Grounded on</dt><dd><code>{d.fingerprint}</code></dd></div>}
      {step.resolved && step.resolved === step.action.target.alias && (
        <div><dt>Resolved</dt><dd>by alias “{step.resolved}”</dd></div>
      )}
      {step.error && <div><dt>Error</dt><dd className="warn">{step.error}</dd></div>}
    </dl>
  );
}
