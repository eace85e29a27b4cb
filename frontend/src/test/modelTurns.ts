// Attempts planned by a model, shaped like the Go JSON (agent.ModelTurn in each step): the
// booking fixtures with a model turn per step, the last one calling done. Tests only.
import type { Attempt, ModelTurn, Step } from "../api/types";
import { noticeNothingSaved, savesNormally } from "./fixtures";

/** The turn that planned step i: one proposed call, done for the verify step. */
function turn(s: Step): ModelTurn {
  const done = s.action.kind === "verify";
  return {
    step: s.index,
    model: "openai:gpt-4.1-mini",
    messages: 3 + 2 * s.index,
    tokens: 900 + 150 * s.index,
    grounded_at_ms: s.before.at_ms,
    calls: [{ id: `call-${s.index}`, name: done ? "done" : s.action.kind, arguments: done ? "{}" : `{"target":"${s.action.target.name ?? ""}"}`, outcome: "proposed" }],
    in_tokens: 1000 + 100 * s.index,
    out_tokens: 40,
    latency_ms: 800 + s.index,
    cost_usd: 0.0012,
  };
}

/** a with a model turn on each step, and the step's reason; the model's done makes its claim, judged as the signal "agent_claim". */
function planned(a: Attempt): Attempt {
  const claim = { id: "agent_claim", label: "agent's claim", done: true, evidence: "the planner said done" };
  return {
    ...a,
    steps: (a.steps ?? []).map((s) => ({ ...s, reason: `I ${s.action.description.toLowerCase()}.`, model_turns: [turn(s)] })),
    claim: { done: true, source: "planner" },
    verdicts: { ...a.verdicts, signals: [...(a.verdicts.signals ?? []), claim] },
  };
}

/** The model said done and the gate agrees. */
export const modelDone = planned(savesNormally);
/** The model said done; the gate does not agree (nothing was saved). */
export const modelWrong = planned(noticeNothingSaved);

/** A turn that met every kind of trouble: a rejected call, retries, a rotation and compaction. */
export const troubledTurn: ModelTurn = {
  step: 1,
  model: "anthropic:claude-haiku",
  messages: 14,
  tokens: 5200,
  grounded_at_ms: 410,
  text: "The title field is empty; filling it.",
  calls: [
    { id: "c1", name: "fill", arguments: '{"target":', outcome: "rejected", result: "the arguments are not JSON: unexpected end" },
    { id: "c2", name: "fill", arguments: '{"target":{"label":"Reservation title"},"value":"Spectral scan"}', outcome: "proposed" },
  ],
  in_tokens: 5100,
  out_tokens: 61,
  latency_ms: 2350,
  cost_usd: 0,
  retries: 2,
  notes: ["openai:gpt-4.1-mini refused (rate limited); rotated to anthropic:claude-haiku"],
  compaction: { messages: 8, summary: "Opened the dialog.", tokens_before: 9100, tokens_after: 5200 },
};
