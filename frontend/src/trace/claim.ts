// What a model planner said on its verify step, beside what the gate decided: the model
// saying done only asks the gate. The attempt's claim itself, whoever drove it (a model
// planner, an MCP client, an outside process), is the signal "agent_claim" among the
// verdicts' (agent.Claim), shown and marked wrong as every signal is. Pure.
import type { Step } from "../api/types";

/** Whether a model's done call became the whole step s's action. */
export function stepSaidDone(s: Step): boolean {
  return (s.model_turns ?? []).some((t) => (t.calls ?? []).some((c) => c.name === "done" && c.outcome === "proposed"));
}

/** What the model said on steps in words beside the gate's call: "model said done · gate: not done". */
export function claimText(steps: Step[], gateDone: boolean): string {
  const said = steps.some(stepSaidDone);
  return `${said ? "model said done" : "model did not say done"} · gate: ${gateDone ? "done" : "not done"}`;
}
