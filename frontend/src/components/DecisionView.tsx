import type { Review, Step } from "../api/types";
import { actionText } from "../trace/target";
import { ApprovalList } from "./ApprovalList";
import { Help } from "./Help";

/** What a step's reviews cost, in words; "" for a review that cost nothing (the rules reviewer). */
function reviewCost(r: Review): string {
  const tokens = (r.in_tokens ?? 0) + (r.out_tokens ?? 0);
  if (tokens === 0 && !r.cost_usd) return "";
  const parts = [`${r.in_tokens ?? 0} in / ${r.out_tokens ?? 0} out tokens`];
  if (r.cost_usd) parts.push(`$${r.cost_usd.toFixed(4)}`);
  if (r.kept) parts.push("kept from before the re-check, paid once");
  return parts.join(", ");
}

/** Everything about a step's proposal and the harness's decision on it, kept apart. */
export function DecisionView({ step }: { step: Step }) {
  if (step.provenance === "observed") {
    // Its approvals are of requests its page sent, held at the network for the user's answer.
    return (
      <>
        <dl className="kv">
          <div><dt>Observed</dt><dd><code>{actionText(step.action)}</code></dd></div>
          <div><dt>Provenance</dt><dd>observed, not proposed: the agent process took this action on its own, so there is no proposal or decision to show</dd></div>
        </dl>
        {step.approvals && step.approvals.length > 0 && <ApprovalList approvals={step.approvals} />}
      </>
    );
  }
  const d = step.decision;
  const r = step.reconciliation;
  const cost = d.review ? reviewCost(d.review) : "";
  return (
    <>
      <dl className="kv">
        <div><dt>Proposed</dt><dd><code>{actionText(step.action)}</code>{step.action.secret && <span className="tag plain">secret, masked</span>}</dd></div>
        <div><dt>Planner's reason</dt><dd>{step.reason || <span className="muted">none given (a scripted plan)</span>}</dd></div>
        <div><dt>Class</dt><dd>{d.class}</dd></div>
        {d.contract && <div><dt>Contract</dt><dd>{d.contract}{d.why && <span className="muted"> ({d.why})</span>}</dd></div>}
        <div><dt>Admission</dt><dd>{d.admission}{d.continue && <span className="muted"> (the attempt goes on)</span>}</dd></div>
        <div><dt>Why</dt><dd>{d.reason}</dd></div>
        {d.review && (
          <div>
            <dt>Review</dt>
            <dd>
              {d.review.verdict} by {d.review.reviewer}: {d.review.reason}
              {cost && <span className="muted"> ({cost})</span>}
            </dd>
          </div>
        )}
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
