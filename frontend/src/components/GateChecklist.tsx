import type { Answer, Condition } from "../api/types";
import { callOf } from "../verdicts";
import { AnswerView } from "./AnswerView";

/** Props of GateChecklist. */
export interface GateChecklistProps {
  heading: string;
  /** null before any check has arrived. */
  conditions: Condition[] | null;
  /** The oracle's raw answers; each condition shows its own in full as its evidence. */
  answers?: Answer[];
  /** Shown when there are no conditions yet. */
  empty?: string;
}

/** Each call's mark and words; never colour alone. */
const CALLS = {
  done: { mark: "✓", state: "holds", className: "holds" },
  "not done": { mark: "○", state: "does not hold", className: "fails" },
  "could not confirm": { mark: "?", state: "could not confirm", className: "unconfirmed" },
} as const;

/**
 * The completion gate's conditions as a checklist, each with its evidence in words, the
 * condition as the task file wrote it (CEL) behind a "show condition" disclosure, and, when
 * recorded, the oracle's raw answer. A condition the oracle could not answer says so, apart from one
 * that does not hold.
 */
export function GateChecklist({ heading, conditions, answers = [], empty = "No check yet." }: GateChecklistProps) {
  const list = conditions ?? [];
  const holding = list.filter((c) => c.done).length;
  return (
    <section className="gate" aria-label={heading}>
      <h3>
        {heading}
        {list.length > 0 && <span className="muted num"> {holding} of {list.length} hold</span>}
      </h3>
      {list.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="checklist">
          {list.map((c) => {
            const call = CALLS[callOf(c)];
            const answer = answers.find((a) => a.condition === c.id);
            return (
              <li key={c.id} className={call.className} data-testid={`condition-${c.id}`}>
                <span className="mark" aria-hidden="true">{call.mark}</span>
                <span className="label">{c.label}</span>
                <span className="state">{call.state}</span>
                <span className="evidence">{c.evidence}</span>
                {c.check && (
                  <details className="condition-source" data-testid={`check-${c.id}`}>
                    <summary>show condition</summary>
                    <code>{c.check}</code>
                  </details>
                )}
                {answer && <AnswerView answer={answer} />}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
