// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Estimates, MetricsSlice, SuiteReport, TaskInfo } from "../api/types";
import { SuiteView } from "./SuiteView";
import { SuiteLauncher } from "./SuiteLauncher";

/** A slice with the estimates the tests read; the rest of the metrics are zero. */
function slice(key: string, completed: number, attempts: number, lo: number, hi: number, flaky?: string[]): MetricsSlice & Estimates {
  const none = { planning_ms: 0, plan_ms: 0, act_ms: 0, verify_ms: 0 } as unknown as MetricsSlice["latency"];
  return {
    key, runs: 1, attempts, completed, unconfirmed: 0, intended_success: 0, wrong_target_rate: 0, revalidation_stop_rate: 0,
    approvals: 0, confirmation_burden: 0, recovery_loops: 0, side_effect_leaks: 0, duplicate_side_effects: 0, policy_denials: 0,
    injection_stops: 0, latency: none, success_interval: { lo, hi }, pass_at_k: completed ? 1 : 0, pass_hat_k: completed / attempts,
    median_steps: 5, median_wall_ms: 1500, tokens_per_success: 0, cost_per_success_usd: 0, flaky,
  };
}

const suite: SuiteReport = {
  id: "smoke@20261203T121500-abcdef",
  name: "smoke",
  runs: [{ id: "run-b", task: "booking", created: "", status: "finished" }],
  trials: 2,
  rows: [
    { key: "booking/saves-normally", task: "booking", attempt: "saves-normally", title: "Saves normally", cells: [
      { run: "run-b", slug: "saves-normally.t1", trial: 1, terminal: "completed" },
      { run: "run-b", slug: "saves-normally.t2", trial: 2, terminal: "completed" },
    ] },
    { key: "booking/flaky-save", task: "booking", attempt: "flaky-save", title: "Flaky save", cells: [
      { run: "run-b", slug: "flaky-save.t1", trial: 1, terminal: "completed" },
      { run: "run-b", slug: "flaky-save.t2", trial: 2, terminal: "failed", wrong: ["notice"] },
    ] },
  ],
  estimates: {
    by: "attempt",
    k: 2,
    slices: [slice("booking/flaky-save", 1, 2, 0.095, 0.905, ["booking/flaky-save"]), slice("booking/saves-normally", 2, 2, 0.342, 1)],
    overall: slice("all", 3, 4, 0.301, 0.954, ["booking/flaky-save"]),
  },
};

describe("SuiteView", () => {
  it("shows every trial's end in a grid, each row's rate with its interval, and the suite's on top", () => {
    render(<SuiteView suite={suite} going={false} onClose={() => {}} onOpen={() => {}} others={[]} onCompare={() => {}} />);
    expect(screen.getByRole("status").textContent).toBe("3 of 4 trials completed · 75% [30%, 95%]");
    expect(screen.getByTestId("suite-interval").textContent).toBe("30% – 95%");
    expect(screen.getByTestId("suite-flaky").textContent).toBe("1");
    const row = within(screen.getByTestId("suite-booking/flaky-save"));
    expect(row.getAllByRole("button").map((b) => b.getAttribute("aria-label"))).toEqual([
      "Flaky save, trial 1: completed: open its trace",
      "Flaky save, trial 2: failed, a check is wrong: open its trace",
    ]);
    expect(row.getByText("flaky")).toBeTruthy();
    expect(row.getByText("1/2 · 50%")).toBeTruthy();
    expect(row.getByText("[10%, 91%]")).toBeTruthy();
    expect(row.getByRole("img").getAttribute("aria-label")).toBe("50%, 95% interval 10% to 91%");
    expect(within(screen.getByTestId("suite-overall")).getByText("3/4 · 75%")).toBeTruthy();
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toContain("Trial 2");
  });

  it("opens a trial's trace and closes", () => {
    const onOpen = vi.fn();
    const onClose = vi.fn();
    render(<SuiteView suite={suite} going onClose={onClose} onOpen={onOpen} others={[]} onCompare={() => {}} />);
    expect(screen.getByRole("status").textContent).toMatch(/^running · /);
    fireEvent.click(screen.getByRole("button", { name: /^Saves normally, trial 2/ }));
    expect(onOpen).toHaveBeenCalledWith("run-b", "saves-normally.t2");
    fireEvent.click(screen.getByRole("button", { name: "Close suite" }));
    expect(onClose).toHaveBeenCalled();
  });

  it("compares another suite run, as A, with this one", () => {
    const onCompare = vi.fn();
    render(<SuiteView suite={suite} going={false} onClose={() => {}} onOpen={() => {}} others={["smoke@20261203T110000-000000"]} onCompare={onCompare} />);
    fireEvent.change(screen.getByRole("combobox", { name: "Compare with" }), { target: { value: "smoke@20261203T110000-000000" } });
    expect(onCompare).toHaveBeenCalledWith("smoke@20261203T110000-000000");
  });
});

describe("SuiteLauncher", () => {
  const task = (ref: string, name: string): TaskInfo => ({ ref, task: { name } } as unknown as TaskInfo);
  const tasks = [task("lab:booking", "booking"), task("lab:outbox", "outbox")];

  it("starts trials of the chosen task and the ones picked, in the list's order", async () => {
    const onStart = vi.fn().mockResolvedValue(null);
    render(<SuiteLauncher tasks={tasks} task={tasks[1]} disabled={false} onStart={onStart} />);
    fireEvent.click(screen.getByRole("button", { name: /Trials/ }));
    const menu = within(screen.getByRole("group", { name: "Run trials" }));
    expect((menu.getByRole("checkbox", { name: "outbox" }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(menu.getByRole("checkbox", { name: "booking" }));
    fireEvent.change(menu.getByRole("spinbutton", { name: "Trials of each attempt" }), { target: { value: "3" } });
    fireEvent.click(menu.getByRole("button", { name: "Start 3 trials of 2 tasks" }));
    expect(onStart).toHaveBeenCalledWith({ name: "suite", tasks: [{ task: "lab:booking" }, { task: "lab:outbox" }], repeat: 3, config: null });
  });

  it("says why a suite could not start", async () => {
    const onStart = vi.fn().mockResolvedValue("a run is already going: stop it first");
    render(<SuiteLauncher tasks={tasks} task={tasks[0]} disabled={false} onStart={onStart} />);
    fireEvent.click(screen.getByRole("button", { name: /Trials/ }));
    fireEvent.click(screen.getByRole("button", { name: "Start 5 trials of 1 task" }));
    expect((await screen.findByRole("alert")).textContent).toBe("a run is already going: stop it first");
  });
});
