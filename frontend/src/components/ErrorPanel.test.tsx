// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ErrorPanel, errorLines } from "./ErrorPanel";

describe("ErrorPanel", () => {
  it("splits each error into the place it names and the problem", () => {
    expect(errorLines("Could not open the task: bad.yaml: at plan[1].target: a target needs a role\nbad.yaml: line 3: did not parse: x\n\nsomething else broke")).toEqual([
      { path: "Could not open the task: bad.yaml: at plan[1].target", problem: "a target needs a role" },
      { path: "bad.yaml: line 3", problem: "did not parse: x" },
      { path: "", problem: "something else broke" },
    ]);
  });

  it("lists every error in full and is dismissed", () => {
    const dismiss = vi.fn();
    render(<ErrorPanel text={"a.yaml: at name: empty\na.yaml: at plan[0].action: unknown action \"hover\""} onDismiss={dismiss} />);
    const panel = screen.getByRole("alert", { name: "Errors" });
    expect(within(panel).getByText("2 errors")).toBeTruthy();
    expect(within(panel).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["a.yaml: at name: empty", 'a.yaml: at plan[0].action: unknown action "hover"']);
    fireEvent.click(within(panel).getByRole("button", { name: "Dismiss" }));
    expect(dismiss).toHaveBeenCalled();
  });
});
