import type { Step } from "../api/types";
import { actionText } from "../trace/target";
import { ApprovalList } from "./ApprovalList";
import { Help } from "./Help";

/** Everything about a step's proposal and the harness's decision on it, kept apart. */
export function DecisionView({ step }: { step: Step }) {
  const d = step.decision;
  const r = step.reconciliation;
  return (
    <>
      <dl className="kv">
        <div><dt>Proposed</dt><dd><code>{actionText(step.action)}</code>{step.action.secret && <span className="tag plain">secret, masked</span>}</dd></div>
        <div><dt>Planner's reason</dt><dd>{step.reason || <span className="muted">none given (a scripted plan)</span>}</dd></div>
        <div><dt>Class</dt><dd>{d.class}</dd></div>
        {d.contract && <div><dt>Contract</dt><dd>{d.contract}{d.why && <span className="muted"> ({d.why})</span>}</dd></div>}
        <div><dt>Admission</dt><dd>{d.admission}{d.continue && <span className="muted"> (the attempt goes on)</span>}</dd></div>
        <div><dt>Why</dt><dd>{d.reason}</dd></div>
        {d.review && <div><dt>Review</dt><dd>{d.review.verdict} by {d.review.reviewer}: {d.review.reason}</dd></div>}
        {d.ask_user && <div><dt>Approval</dt><dd>runs only once the user approves it</dd></div>}
        {d.risk && <div><dt>Risk</dt><dd>{d.risk}: {d.risk === "high" ? "the price, amount, recipient and version must not change" : "the account, page, target and form must not change"}</dd></div>}
        {d.fingerprint && (
          <div>
            <dt>
              Grounded on <Help term="fingerprint" topic="a fingerprint" />
            </dt>
            <dd>
              <code>{d.fingerprint}</code>
              {d.observed && (
                <span className="muted">
                  {" "}
                  observed at {d.observed.at_ms} ms{d.observed.principal ? `, signed in as ${d.observed.principal}` : ""}
                  {d.observed.version ? `, version ${d.observed.version}` : ""}
                </span>
              )}
            </dd>
          </div>
        )}
        {step.guidance && <div><dt>Guidance</dt><dd>{step.guidance}</dd></div>}
        {step.resolved && step.resolved === step.action.target.alias && (
          <div><dt>Resolved</dt><dd>by alias “{step.resolved}”</dd></div>
        )}
        {r && (
          <div>
            <dt>Reconciled</dt>
            <dd>
              {r.outcome}: {r.found} record{r.found === 1 ? "" : "s"} for operation <code>{r.op_id}</code> (<code>{r.query}</code>)
              <pre>{r.answer}</pre>
            </dd>
          </div>
        )}
        {step.error && <div><dt>Error</dt><dd className="warn">{step.error}</dd></div>}
      </dl>
      {step.approvals && step.approvals.length > 0 && <ApprovalList approvals={step.approvals} />}
    </>
  );
}
