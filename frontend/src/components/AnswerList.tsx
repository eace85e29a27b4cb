import type { Answer, Verdicts } from "../api/types";
import { AnswerView } from "./AnswerView";

/** Every raw answer the oracle read at the final check, under the label of what asked. */
export function AnswerList({ answers, names }: { answers: Answer[]; names: Verdicts }) {
  if (answers.length === 0) return <p className="muted">No raw answers were recorded: the verdicts were judged from the app's event log.</p>;
  const label = (id: string) =>
    [names.truth, ...(names.signals ?? []), ...(names.gate.conditions ?? [])].find((x) => x.id === id)?.label ?? id;
  return (
    <ul className="answers">
      {answers.map((a, k) => (
        <li key={`${a.condition}-${k}`}>
          <strong>{label(a.condition)}</strong>
          <AnswerView answer={a} />
        </li>
      ))}
    </ul>
  );
}
