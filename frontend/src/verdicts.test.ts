import { describe, expect, it } from "vitest";
import { issueAttempt, lab, noticeNothingSaved } from "./test/fixtures";
import { headerOf } from "./trace/summary";
import { callOf, columnsOf, rowCells, totals, verdictName, wrongChecks } from "./verdicts";

describe("columnsOf", () => {
  it("names the columns from the task's verdicts, in order", () => {
    expect(columnsOf(lab.columns).map((c) => [c.key, c.label, c.kind])).toEqual([
      ["truth", "Saved as asked", "truth"],
      ["notice", "Success notice", "signal"],
      ["parallax", "Parallax's check", "signal"],
      ["gate", "Completion gate", "gate"],
      ["terminal", "Terminal", "terminal"],
    ]);
  });
});

describe("verdicts", () => {
  it("marks wrong the checks whose call differs from the ground truth, as Verdicts.Wrong does", () => {
    expect(wrongChecks(noticeNothingSaved.verdicts)).toEqual(["notice", "parallax"]);
  });

  it("marks nothing wrong against a ground truth that could not be confirmed", () => {
    expect(issueAttempt.verdicts.truth.unconfirmed).toBeTruthy();
    expect(wrongChecks(issueAttempt.verdicts)).toEqual([]);
    const cols = columnsOf(issueAttempt.verdicts);
    const cells = rowCells(headerOf(issueAttempt), cols);
    expect(Object.values(cells).some((c) => c.wrong)).toBe(false);
    const sums = totals([headerOf(issueAttempt), headerOf(noticeNothingSaved)], cols);
    expect(sums.truth).toBe("yes: 0 of 1 (1 could not confirm)");
    expect(sums.gate).toBe("wrong: 0 of 1");
  });

  it("says could not confirm when the oracle could not answer", () => {
    expect(callOf({ done: false, evidence: "", unconfirmed: "timeout" })).toBe("could not confirm");
    expect(callOf({ done: false, evidence: "" })).toBe("not done");
    const cells = rowCells(headerOf(issueAttempt), columnsOf(issueAttempt.verdicts));
    expect(cells.truth).toMatchObject({ text: "could not confirm", unconfirmed: true });
    expect(cells.gate.evidence).toBe("API says closed: could not confirm");
    expect(cells["saved-banner"]).toMatchObject({ text: "done", wrong: false, unknown: true });
  });

  it("totals the wrong checks per column", () => {
    const cols = columnsOf(lab.columns);
    expect(totals([headerOf(noticeNothingSaved)], cols)).toEqual({
      truth: "yes: 0 of 1",
      notice: "wrong: 1 of 1",
      parallax: "wrong: 1 of 1",
      gate: "wrong: 0 of 1",
      terminal: "completed: 0 of 1",
    });
  });

  it.each([
    ["truth", "saved as asked"],
    ["notice", "success notice"],
    ["gate", "completion gate"],
    ["gate.record", "completion gate, Committed record exists"],
    ["gate.record (evidence)", "completion gate, Committed record exists (evidence)"],
    ["parallax (could not confirm)", "Parallax's check (could not confirm)"],
    ["terminal", "terminal state"],
    ["task", "task"],
  ])("names the disagreement %s as %s", (verdict, want) => {
    expect(verdictName(verdict, lab.columns)).toBe(want);
  });
});
