import { describe, expect, it } from "vitest";
import { modelDone, modelWrong } from "../test/modelTurns";
import { columnsOf, rowCells, totals } from "../verdicts";
import { claimText } from "./claim";
import { headerOf } from "./summary";

describe("the agent's claim", () => {
  const [done, wrong] = [headerOf(modelDone), headerOf(modelWrong)];
  const columns = columnsOf(done.verdicts);

  it("is a signal, its column the last before the gate's", () => {
    expect(columns.map((c) => c.key)).toEqual(["truth", "notice", "parallax", "agent_claim", "gate", "terminal"]);
    expect(columns.find((c) => c.key === "agent_claim")).toMatchObject({ label: "Agent's claim", kind: "signal" });
  });

  it("is wrong where it disagrees with the ground truth, as every signal is", () => {
    expect(rowCells(done, columns).agent_claim).toMatchObject({ text: "done", wrong: false });
    expect(rowCells(wrong, columns).agent_claim).toMatchObject({ text: "done", wrong: true });
    expect(totals([done, wrong], columns).agent_claim).toBe("wrong: 1 of 2");
  });

  it("says on the verify step what the model said beside the gate's call", () => {
    expect(claimText(modelWrong.steps!.slice(-1), false)).toBe("model said done · gate: not done");
    expect(claimText(modelWrong.steps!.slice(0, -1), false)).toBe("model did not say done · gate: not done");
  });
});
