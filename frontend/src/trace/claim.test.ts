import { describe, expect, it } from "vitest";
import { lab, savesNormally } from "../test/fixtures";
import { modelDone, modelWrong } from "../test/modelTurns";
import { columnsOf, rowCells, totals } from "../verdicts";
import { claimText, withClaim } from "./claim";

describe("the model's claim", () => {
  const columns = withClaim(columnsOf(lab.columns), [modelDone, modelWrong]);

  it("adds its column before the gate's only when a model planned an attempt", () => {
    expect(columns.map((c) => c.kind)).toEqual(["truth", "signal", "signal", "claim", "gate", "terminal"]);
    expect(withClaim(columnsOf(lab.columns), [savesNormally])).toEqual(columnsOf(lab.columns));
  });

  it("is wrong when the model said done and the gate disagrees", () => {
    expect(rowCells(modelDone, columns).claim).toMatchObject({ text: "done", wrong: false });
    expect(rowCells(modelWrong, columns).claim).toMatchObject({ text: "done", wrong: true, evidence: "model said done · gate: not done" });
    expect(totals([modelDone, modelWrong], columns).claim).toBe("wrong: 1 of 2");
  });

  it("says so when the model never said done", () => {
    const steps = modelWrong.steps!.slice(0, -1);
    expect(claimText(steps, false)).toBe("model did not say done · gate: not done");
    expect(rowCells({ ...modelWrong, steps }, columns).claim).toMatchObject({ text: "not said", wrong: false });
  });
});
