import type { Answer } from "../api/types";

/** One oracle answer in full: what kind of oracle, and its raw answer or why it had none. */
export function AnswerView({ answer }: { answer: Answer }) {
  return (
    <div className="answer" data-testid={`answer-${answer.condition}`}>
      <span className="muted">{answer.kind} oracle answered:</span>
      {answer.error ? (
        <pre className="answer-error">no answer: {answer.error}</pre>
      ) : (
        <pre>{JSON.stringify(answer.raw ?? null, null, 2)}</pre>
      )}
    </div>
  );
}
