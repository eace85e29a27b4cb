import type { AttemptHeader } from "../api/types";
import { rowCells, type Column } from "../verdicts";
import { RightnessTag } from "./RightnessTag";

/** An attempt's verdicts with their evidence, wrong ones marked in words. */
export function VerdictList({ attempt, columns }: { attempt: AttemptHeader; columns: Column[] }) {
  const cells = rowCells(attempt, columns);
  return (
    <section aria-label="Verdicts">
      <h3>Verdicts</h3>
      <dl className="verdicts">
        {columns.map(({ key, label }) => (
          <div key={key} className={cells[key].wrong ? "wrong" : cells[key].unconfirmed ? "unconfirmed" : undefined}>
            <dt>{label}</dt>
            <dd>
              <strong>{cells[key].text}</strong>
              <RightnessTag cell={cells[key]} />
              <span className="evidence">{cells[key].evidence}</span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
