import { describe, expect, it } from "vitest";
import { lab, savesNormally } from "../test/fixtures";
import { modelDone, modelWrong } from "../test/modelTurns";
import { columnsOf, rowCells, totals } from "../verdicts";
import { claimText, withClaim } from "./claim";
import { headerOf } from "./summary";

describe("the model's claim", () => {
  const [done, wrong] = [headerOf(modelDone), headerOf(modelWrong)];
  const columns = withClaim(columnsOf(lab.columns), [done, wrong]);

  it("adds its column before the gate's only when a model planned an attempt", () => {
    expect(columns.map((c) => c.kind)).toEqual(["truth", "signal", "signal", "claim", "gate", "terminal"]);
    expect(withClaim(columnsOf(lab.columns), [headerOf(savesNormally)])).toEqual(columnsOf(lab.columns));
  });

  it("is wrong when the model said done and the gate disagrees", () => {
    expect(rowCells(done, columns).claim).toMatchObject({ text: "done", wrong: false });
    expect(rowCells(wrong, columns).claim).toMatchObject({ text: "done", wrong: true, evidence: "model said done · gate: not done" });
    expect(totals([done, wrong], columns).claim).toBe("wrong: 1 of 2");
  });

  it("says so when the model never said done", () => {
    const steps = modelWrong.steps!.slice(0, -1);
    expect(claimText(steps, false)).toBe("model did not say done · gate: not done");
    expect(rowCells(headerOf({ ...modelWrong, steps }), columns).claim).toMatchObject({ text: "not said", wrong: false });
  });

  it("counts an attempt whose planning ended before any step as planned by the model", () => {
    const ending = headerOf({ ...savesNormally, steps: [], model_turns: [{ step: 0, model: "", messages: 2, tokens: 900, grounded_at_ms: 0, in_tokens: 0, out_tokens: 0,
      latency_ms: 0, cost_usd: 0, error: "the 1m0s time limit is up: time limit: planning limit reached" }] });
    expect(withClaim(columnsOf(lab.columns), [ending]).map((c) => c.kind)).toContain("claim");
    expect(rowCells(ending, columns).claim).toMatchObject({ text: "not said", wrong: false });
  });
});
