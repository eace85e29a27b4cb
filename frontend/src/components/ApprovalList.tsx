import type { Approval } from "../api/types";

/**
 * The approvals a step asked for before it acted: what approving would let happen, the answer
 * and who gave it, and each answer refused as the agent's own (it tried to approve itself).
 */
export function ApprovalList({ approvals }: { approvals: Approval[] }) {
  return (
    <section aria-label="Approvals">
      <h3>Approvals</h3>
      <ul className="approvals">
        {approvals.map((a, k) => (
          <li key={k}>
            <strong>{a.answer === "none" ? "no answer" : a.answer}</strong>
            {a.void && <span className="tag plain">void: the details changed</span>} {a.request.action} <code>{a.request.target}</code>
            {a.request.recipient && <> to {a.request.recipient}</>}
            {a.request.amount && <>, {a.request.amount}</>}
            {a.by && <> by {a.by}</>}
            <span className="muted num"> · asked at {a.asked_ms} ms, answered at {a.answered_ms} ms</span>
            {a.request.effect && <div>{a.request.effect}</div>}
            {(a.request.compared ?? [])
              .filter((c) => c.differs)
              .map((c) => (
                <div key={c.field} className="approval-differs-line">
                  not as the task asked: {c.differs}
                </div>
              ))}
            {a.request.why && <div className="muted">why asked: {a.request.why}</div>}
            <div className="muted">{a.request.permanence}</div>
            {a.request.again && <div className="muted">asked again: {a.request.again}</div>}
            {a.note && <div className="muted">{a.note}</div>}
            {a.refused?.map((r, i) => (
              <div key={i} className="tag failed-tag">
                self-approval refused at {r.at_ms} ms: {r.by}, {r.why}
              </div>
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}
