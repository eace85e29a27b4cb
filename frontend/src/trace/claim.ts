// What a model planner claimed about its attempt, beside what the gate decided: the model
// saying done only asks the gate. Pure.
import type { AttemptHeader, Step } from "../api/types";
import type { Cell, Column } from "../verdicts";

/** The column's key, and its kind in the attempts table. */
export const CLAIM = "claim";

/** Whether a model's done call became the whole step s's action. */
export function stepSaidDone(s: Step): boolean {
  return (s.model_turns ?? []).some((t) => (t.calls ?? []).some((c) => c.name === "done" && c.outcome === "proposed"));
}

/** Whether a model planned the attempt: a step of it, or the planning that ended it (Attempt.model_turns). */
export function modelPlanned(a: AttemptHeader): boolean {
  return (a.turns ?? 0) > 0 || (a.model_turns ?? []).length > 0;
}

/** The claim in words beside the gate's call: "model said done · gate: not done". */
function claimWords(said: boolean, gateDone: boolean): string {
  return `${said ? "model said done" : "model did not say done"} · gate: ${gateDone ? "done" : "not done"}`;
}

/** The claim of whole steps in words beside the gate's call. */
export function claimText(steps: Step[], gateDone: boolean): string {
  return claimWords(steps.some(stepSaidDone), gateDone);
}

/** The claim column, before the gate's, when a model planned any of attempts; else columns. */
export function withClaim(columns: Column[], attempts: AttemptHeader[]): Column[] {
  if (!attempts.some(modelPlanned)) return columns;
  const claim: Column = { key: CLAIM, label: "Model's claim", kind: "claim", hint: "what the model said; wrong where it said done and the gate disagrees" };
  const at = columns.findIndex((c) => c.kind === "gate");
  return [...columns.slice(0, at), claim, ...columns.slice(at)];
}

/** The claim cell of a: wrong when the model said done and the gate did not agree. */
export function claimCell(a: AttemptHeader): Cell {
  if (!modelPlanned(a)) return { text: "—", wrong: false, unconfirmed: false, evidence: "no model planned this attempt" };
  const done = !!a.said_done;
  return { text: done ? "done" : "not said", wrong: done && !a.verdicts.gate.done, unconfirmed: false, evidence: claimWords(done, a.verdicts.gate.done) };
}
