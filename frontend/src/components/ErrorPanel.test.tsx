// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ErrorPanel, errorLines, panelErrors } from "./ErrorPanel";

describe("ErrorPanel", () => {
  it("splits each error into the place it names and the problem", () => {
    expect(errorLines("Could not open the task: bad.yaml: at plan[1].target: a target needs a role\nbad.yaml: line 3: did not parse: x\n\nsomething else broke")).toEqual([
      { path: "Could not open the task: bad.yaml: at plan[1].target", problem: "a target needs a role" },
      { path: "bad.yaml: line 3", problem: "did not parse: x" },
      { path: "", problem: "something else broke" },
    ]);
  });

  const ctx = { runId: "r1", titleOf: (slug: string) => `Title of ${slug}`, shotOf: (slug: string) => (slug === "a" ? "shots/3-after.jpg" : undefined) };

  it("types a failed call's errors with the backend's kind, and its path when the line names none", () => {
    const text = "a.yaml: at name: empty\na.yaml: at plan[0].action: unknown action";
    expect(panelErrors({ kind: "error", text, error: { kind: "invalid", path: "" } }, [], ctx)).toEqual([
      { kind: "invalid", path: "a.yaml: at name", problem: "empty" },
      { kind: "invalid", path: "a.yaml: at plan[0].action", problem: "unknown action" },
    ]);
    expect(panelErrors({ kind: "error", text: "Could not import: bad field", error: { kind: "invalid", path: "attempts[0].steps" } }, [], ctx)).toEqual([
      { kind: "invalid", path: "attempts[0].steps", problem: "Could not import: bad field" },
    ]);
    expect(panelErrors({ kind: "info", text: "Saved." }, [], ctx)).toEqual([]);
  });

  it("adds every error the run reported under its attempt, with the attempt's newest screenshot", () => {
    expect(panelErrors(null, [{ message: "closing the page: gone", slug: "a" }, { message: "browser crashed" }], ctx)).toEqual([
      { kind: "run", path: "Title of a", problem: "closing the page: gone", shot: { runId: "r1", path: "shots/3-after.jpg" } },
      { kind: "run", path: "", problem: "browser crashed", shot: undefined },
    ]);
  });

  it("lists every error in full, with its kind, and is dismissed", () => {
    const dismiss = vi.fn();
    const errors = panelErrors({ kind: "error", text: 'a.yaml: at name: empty\na.yaml: at plan[0].action: unknown action "hover"', error: { kind: "invalid", path: "" } }, [{ message: "gone", slug: "a" }], ctx);
    render(<ErrorPanel errors={errors} onDismiss={dismiss} />);
    const panel = screen.getByRole("alert", { name: "Errors" });
    expect(within(panel).getByText("3 errors")).toBeTruthy();
    expect(within(panel).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "invalid input a.yaml: at name: empty",
      'invalid input a.yaml: at plan[0].action: unknown action "hover"',
      "run error Title of a: gone",
    ]);
    expect(within(panel).getByRole("img", { name: "The page when it happened: Title of a" })).toBeTruthy();
    fireEvent.click(within(panel).getByRole("button", { name: "Dismiss" }));
    expect(dismiss).toHaveBeenCalled();
  });
});
