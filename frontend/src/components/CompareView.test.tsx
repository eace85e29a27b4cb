// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { comparison, rates } from "../test/fixtures";
import { CompareView } from "./CompareView";

describe("CompareView", () => {
  const cells = (slug: string) => within(screen.getByTestId(`compare-${slug}`)).getAllByRole("cell");

  it("shows each attempt's terminal state, verdicts, steps and duration in both runs, differences marked", () => {
    render(<CompareView comparison={comparison} onClose={() => {}} onOpen={() => {}} />);
    expect(screen.getByRole("status").textContent).toBe("2 of 3 attempts differ");
    expect(cells("saves-normally").map((c) => c.textContent)).toEqual([
      "completed (differs)",
      "done (differs)",
      "done (differs)",
      "done (differs)",
      "5 (differs)",
      "655 ms",
      "failed (differs)",
      "not done (differs)",
      "done (wrong) (differs)",
      "not done (differs)",
      "4 (differs)",
      "640 ms",
    ]);
    expect(screen.getByTestId("b-saves-normally-notice").className).toBe("differs wrong");
    expect(cells("notice-nothing-saved").some((c) => c.className.includes("differs"))).toBe(false);
    expect(cells("save-refused")[0].textContent).toBe("not in run A (differs)");
    expect(within(screen.getByRole("row", { name: /Save refused/ })).getByText("differs")).toBeTruthy();
  });

  it("names the two runs, opens either and closes", () => {
    const onOpen = vi.fn();
    const onClose = vi.fn();
    render(<CompareView comparison={comparison} onClose={onClose} onOpen={onOpen} />);
    fireEvent.click(screen.getByRole("button", { name: "run-2" }));
    expect(onOpen).toHaveBeenCalledWith("run-2");
    expect(screen.getByText(/shared\.json/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Close comparison" }));
    expect(onClose).toHaveBeenCalled();
  });
});

describe("CompareView's rates", () => {
  it("shows each attempt's rates, largest change first, the exact test and its verdict in words", () => {
    render(<CompareView comparison={comparison} rates={rates} onClose={() => {}} onOpen={() => {}} />);
    const table = screen.getByRole("table", { name: /Completion rates over the trials/ });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => within(r).getByRole("rowheader").textContent)).toEqual(["renamed-button-exact improvement", "saves-normally ", "All attempts improvement"]);
    const renamed = within(screen.getByTestId("rates-renamed-button-exact")).getAllByRole("cell").map((c) => c.textContent);
    expect(renamed).toEqual(["0/6", "6/6", "+100% [+45%, +100%]", "McNemar (paired), p = 0.0313", "B completes more often (p = 0.0312)"]);
    expect(within(screen.getByTestId("rates-saves-normally")).getByText("no evidence of a difference (p = 1)")).toBeTruthy();
  });

  it("names the baseline and the candidate, swaps them, and words a regression apart from an improvement", () => {
    render(<CompareView comparison={comparison} rates={rates} onClose={() => {}} onOpen={() => {}} />);
    const tag = () => within(screen.getByTestId("rates-renamed-button-exact")).getByTestId("direction");
    expect(tag().textContent).toBe("improvement");
    expect(tag().className).toBe("tag improvement");
    // saves-normally completed in run-1 and failed in run-2: the candidate regressed, and that pair comes first.
    const pairs = screen.getAllByTestId(/^compare-/);
    expect(pairs[0].getAttribute("data-testid")).toBe("compare-saves-normally");
    expect(within(pairs[0]).getByTestId("direction").textContent).toBe("regression");
    expect(screen.getAllByText(/^A \(baseline\)$/).length).toBeGreaterThan(0);
    expect(screen.getAllByTestId("setting").map((r) => r.textContent)).toEqual(["Saves normallyparams.latency_ms50900"]);
    fireEvent.click(screen.getByRole("button", { name: "Swap baseline and candidate" }));
    expect(tag().textContent).toBe("regression");
    expect(tag().className).toBe("tag regression");
    const swapped = within(screen.getByTestId("rates-renamed-button-exact")).getAllByRole("cell").map((c) => c.textContent);
    expect(swapped).toEqual(["6/6", "0/6", "-100% [-100%, -45%]", "McNemar (paired), p = 0.0313", "A completes more often (p = 0.0312)"]);
    expect(within(screen.getByTestId("compare-saves-normally")).getByTestId("direction").textContent).toBe("improvement");
    expect(screen.getAllByTestId("setting").map((r) => r.textContent)).toEqual(["Saves normallyparams.latency_ms90050"]);
  });

  it("shows the attempts alone until the rates come", () => {
    render(<CompareView comparison={comparison} onClose={() => {}} onOpen={() => {}} />);
    expect(screen.queryByRole("table", { name: /Completion rates/ })).toBeNull();
  });

  it("compares two suite runs by their rates alone, task by task", () => {
    const suites = {
      ...rates,
      a: { ...rates.a, id: "smoke@20261203T110000-aaaaaa", task: "smoke" },
      b: { ...rates.b, id: "smoke@20261203T120000-bbbbbb", task: "smoke" },
      rows: rates.rows.map((r) => ({ ...r, attempt: `booking/${r.attempt}` })),
      unmatched: ["outbox/sends-normally"],
    };
    render(<CompareView comparison={null} rates={suites} onClose={() => {}} onOpen={() => {}} />);
    expect(screen.getByRole("heading", { name: /Compare suite runs/ })).toBeTruthy();
    expect(screen.getByRole("status").textContent).toBe("1 of 2 attempts differ significantly · overall: B completes more often (p = 0.0312)");
    expect(screen.getByRole("columnheader", { name: "Task / attempt" })).toBeTruthy();
    expect(within(screen.getByTestId("rates-booking/renamed-button-exact")).getAllByRole("cell")[0].textContent).toBe("0/6");
    expect(screen.getByText("In one suite run only, not compared: outbox/sends-normally")).toBeTruthy();
  });

  it("opens a pair's traces in its place when asked, after a swap too, and comes back to the comparison as it was", () => {
    const renderPair = vi.fn((p: { slug: string; a: string; b: string }, back: () => void) => (
      <button type="button" onClick={back}>
        pair {p.slug} {p.a} {p.b}
      </button>
    ));
    render(<CompareView comparison={comparison} onClose={() => {}} onOpen={() => {}} renderPair={renderPair} />);
    // only pairs both runs ran open
    expect(screen.queryByRole("button", { name: "Open both traces of Save refused" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Swap baseline and candidate" }));
    fireEvent.click(screen.getByRole("button", { name: "Open both traces of Saves normally" }));
    fireEvent.click(screen.getByRole("button", { name: "pair saves-normally run-2 run-1" }));
    expect(screen.getByTestId("a-saves-normally-terminal").textContent).toBe("failed (differs)");
  });
});
