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
});
