// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { StepSummary } from "../api/types";
import { noticeNothingSaved, plan } from "../test/fixtures";
import { summaries } from "../trace/summary";
import { ROW_HEIGHT, StepList } from "./StepList";

const five = summaries(noticeNothingSaved.steps!);

/** n steps cycling through the fixture's five. */
function many(n: number): StepSummary[] {
  return Array.from({ length: n }, (_, k) => ({ ...five[k % 5], index: k, description: `Action ${k + 1}` }));
}

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

  it("keeps the steps a search finds: / goes to it, Enter chooses the first found, Esc clears it", () => {
    const onStep = vi.fn();
    render(<StepList steps={many(30)} plan={[]} current={0} onStep={onStep} />);
    const field = screen.getByRole("searchbox", { name: "Search the steps" });
    fireEvent.keyDown(document.body, { key: "/" });
    expect(document.activeElement).toBe(field);
    fireEvent.change(field, { target: { value: "action 2" } });
    const nav = screen.getByRole("navigation", { name: "Steps" });
    const names = within(nav).getAllByRole("button").map((b) => b.querySelector(".desc")!.textContent);
    // every word, anywhere: "2" is in 12 as well
    expect(names).toEqual(["Action 2", "Action 12", ...Array.from({ length: 10 }, (_, k) => `Action ${20 + k}`)]);
    expect(screen.getByTestId("steps-found").textContent).toBe("12 of 30");
    fireEvent.click(within(nav).getByRole("button", { name: /Action 25/ }));
    expect(onStep).toHaveBeenLastCalledWith(24);
    fireEvent.keyDown(field, { key: "Enter" });
    expect(onStep).toHaveBeenLastCalledWith(1);
    fireEvent.change(field, { target: { value: "nothing like it" } });
    expect(screen.getByText("No step holds “nothing like it”.")).toBeTruthy();
    fireEvent.keyDown(field, { key: "Escape" });
    expect((field as HTMLInputElement).value).toBe("");
    expect(screen.queryByTestId("steps-found")).toBeNull();
    expect(within(nav).getAllByRole("button")[1].textContent).toContain("Action 2");
  });

  it("takes / from a tab list, but leaves it to a text field", () => {
    render(
      <>
        <div role="tablist" aria-label="Tabs">
          <button type="button" role="tab" aria-selected="true">Call</button>
        </div>
        <input aria-label="Other field" />
        <StepList steps={many(3)} plan={[]} current={0} onStep={() => {}} />
      </>,
    );
    const field = screen.getByRole("searchbox", { name: "Search the steps" });
    const other = screen.getByRole("textbox", { name: "Other field" });
    other.focus();
    fireEvent.keyDown(other, { key: "/" });
    expect(document.activeElement).toBe(other);
    const tab = screen.getByRole("tab", { name: "Call" });
    tab.focus();
    fireEvent.keyDown(tab, { key: "/" });
    expect(document.activeElement).toBe(field);
  });
});
