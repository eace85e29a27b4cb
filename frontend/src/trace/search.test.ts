import { describe, expect, it } from "vitest";
import { noticeNothingSaved } from "../test/fixtures";
import { searchSteps } from "./search";
import { summaries } from "./summary";

const steps = summaries(noticeNothingSaved.steps!);

describe("searchSteps", () => {
  it("filters nothing without words", () => {
    expect(searchSteps(steps, "  ")).toBeNull();
  });

  it("finds the steps holding every word, whatever the case, by description, action, class or status", () => {
    const fill = steps.findIndex((s) => s.kind === "fill");
    expect(fill).toBeGreaterThanOrEqual(0);
    expect(searchSteps(steps, "FILL")).toContain(fill);
    expect(searchSteps(steps, `${steps[fill].class} fill`)).toContain(fill);
    expect(searchSteps(steps, "no step says this")).toEqual([]);
    const failed = steps.flatMap((s, k) => (s.failed ? [k] : []));
    expect(searchSteps(steps, "error")).toEqual(failed);
  });
});
