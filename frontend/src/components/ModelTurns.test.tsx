// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { modelWrong, troubledTurn } from "../test/modelTurns";
import type { ModelTurn } from "../api/types";
import { ModelTurns } from "./ModelTurns";

describe("ModelTurns", () => {
  const steps = modelWrong.steps!;

  it("shows each turn's model, reason, calls with their outcome, tokens, latency, cost, retries, notes and compaction", () => {
    render(<ModelTurns step={{ ...steps[1], model_turns: [troubledTurn] }} />);
    expect(screen.getByText("I fill task title.")).toBeTruthy();
    const t = within(screen.getByTestId("model-turn-0"));
    expect(t.getByRole("heading").textContent).toBe(
      "anthropic:claude-haiku · 2350 ms · tokens in 5100 / out 61 · no price set · 2 retries",
    );
    const calls = t.getAllByRole("listitem").map((li) => li.textContent);
    expect(calls).toEqual([
      'fill({"target":) rejected the arguments are not JSON: unexpected end',
      'fill({"target":{"label":"Reservation title"},"value":"Spectral scan"}) proposed',
    ]);
    expect(t.getByText(/rotated to anthropic:claude-haiku/)).toBeTruthy();
    expect(t.getByText("Compacted 8 messages: 9100 → 5200 tokens. Summary: Opened the dialog.")).toBeTruthy();
    expect(screen.queryByTestId("model-claim")).toBeNull();
  });

  it("puts the model's claim beside the gate on the verify step", () => {
    render(<ModelTurns step={steps[steps.length - 1]} gateDone={false} />);
    expect(screen.getByTestId("model-claim").textContent).toBe("model said done · gate: not done");
    expect(within(screen.getByTestId("model-turn-0")).getByRole("heading").textContent).toContain("$0.0012");
  });

  it("shows the planning that ended the attempt after the step's turns, with its waits, error and the observation it saw", () => {
    const ending: ModelTurn = { step: 3, model: "", messages: 9, tokens: 2100, grounded_seq: 8, grounded_at_ms: 4100, in_tokens: 0, out_tokens: 0, latency_ms: 0, cost_usd: 0,
      notes: ["every model refused (openai:gpt-4.1-mini: refused (HTTP 429): quota); waited 1m0s in 2 passes"],
      error: "the 1m0s time limit is up: time limit: planning limit reached" };
    render(<ModelTurns step={{ ...steps[1], model_turns: [{ ...troubledTurn, grounded_seq: 4 }] }} ending={[ending]} />);
    expect(within(screen.getByTestId("model-turn-0")).getByRole("heading").textContent).toContain("· saw observation 4");
    const end = within(screen.getByRole("region", { name: "The planning that ended the attempt" }));
    const t = within(end.getByTestId("model-ending-0"));
    expect(t.getByText(/waited 1m0s in 2 passes/)).toBeTruthy();
    expect(t.getByText("the 1m0s time limit is up: time limit: planning limit reached")).toBeTruthy();
    expect(t.getByRole("heading").textContent).toContain("saw observation 8");
  });
});
