import type { Condition } from "../api/types";

/** Props of GateChecklist. */
export interface GateChecklistProps {
  heading: string;
  /** null before any check has arrived. */
  conditions: Condition[] | null;
  /** Shown when there are no conditions yet. */
  empty?: string;
}

/** The completion gate's conditions as a checklist, each with its evidence; never colour-only. */
export function GateChecklist({ heading, conditions, empty = "No check yet." }: GateChecklistProps) {
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
          {list.map((c) => (
            <li key={c.id} className={c.done ? "holds" : "fails"} data-testid={`condition-${c.id}`}>
              <span className="mark" aria-hidden="true">{c.done ? "✓" : "○"}</span>
              <span className="label">{c.label}</span>
              <span className="state">{c.done ? "holds" : "does not hold"}</span>
              <span className="evidence">{c.evidence}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
