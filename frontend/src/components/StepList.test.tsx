// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { StepSummary } from "../api/types";
import { noticeNothingSaved, plan } from "../test/fixtures";
import { summaries } from "../trace/summary";
import { ROW_HEIGHT, StepList, visibleRows } from "./StepList";

const five = summaries(noticeNothingSaved.steps!);

/** n steps cycling through the fixture's five. */
function many(n: number): StepSummary[] {
  return Array.from({ length: n }, (_, k) => ({ ...five[k % 5], index: k, action: { ...five[k % 5].action, description: `Action ${k + 1}` } }));
}

describe("visibleRows", () => {
  it("draws the rows in view and a few either side, never past the list", () => {
    expect(visibleRows(0, 400, 10_000)).toEqual([0, 400 / ROW_HEIGHT + 6]);
    expect(visibleRows(100 * ROW_HEIGHT, 400, 10_000)).toEqual([94, 116]);
    expect(visibleRows(0, 400, 3)).toEqual([0, 3]);
  });
});

describe("StepList", () => {
  it("draws a window of a 10,000-step run, the list as tall as all of it", () => {
    render(<StepList steps={many(10_000)} plan={plan} current={0} onStep={() => {}} />);
    const nav = screen.getByRole("navigation", { name: "Steps" });
    expect(within(nav).getAllByRole("button").length).toBeLessThan(40);
    expect(nav.querySelector("ol")!.style.height).toBe(`${10_000 * ROW_HEIGHT}px`);
  });

  it("scrolls the chosen step into view and draws it", () => {
    const { rerender } = render(<StepList steps={many(10_000)} plan={plan} current={0} onStep={() => {}} />);
    rerender(<StepList steps={many(10_000)} plan={plan} current={9_999} onStep={() => {}} />);
    const nav = screen.getByRole("navigation", { name: "Steps" });
    fireEvent.scroll(nav);
    expect(within(nav).getByRole("button", { current: "step" }).textContent).toContain("Action 10000");
  });

  it("lists the planned steps never reached after the observed ones, and chooses on click", () => {
    const onStep = vi.fn();
    render(<StepList steps={five.slice(0, 2)} plan={plan} current={0} onStep={onStep} />);
    expect(screen.getAllByText("not reached")).toHaveLength(3);
    fireEvent.click(screen.getByRole("button", { name: /Fill task title/ }));
    expect(onStep).toHaveBeenCalledWith(1);
  });
});
