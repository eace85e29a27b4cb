// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { MetricsBy, MetricsReport, MetricsSlice } from "../api/types";
import { MetricsPanel } from "./MetricsPanel";

const slice = (key: string, over: Partial<MetricsSlice>): MetricsSlice => ({
  key,
  runs: 1,
  attempts: 8,
  completed: 3,
  unconfirmed: 0,
  intended_success: 0.375,
  wrong_target_rate: 0.125,
  revalidation_stop_rate: 0,
  approvals: 0,
  confirmation_burden: 0,
  recovery_loops: 0,
  side_effect_leaks: 0,
  duplicate_side_effects: 0,
  policy_denials: 0,
  injection_stops: 0,
  latency: { plan_ms: 0, act_ms: 477.4, verify_ms: 424 },
  success_interval: { lo: 0, hi: 1 },
  pass_at_k: 0,
  pass_hat_k: 0,
  median_steps: 0,
  median_wall_ms: 0,
  tokens_per_success: 0,
  cost_per_success_usd: 0,
  ...over,
});

/** A report of slices, its overall row the first slice's (the panel does not show it). */
const report = (by: MetricsBy, slices: MetricsSlice[]): MetricsReport => ({ by, slices, overall: slices[0] ?? slice("all", {}), k: 1 });

describe("MetricsPanel", () => {
  it("charts each rate, tables every metric, and reads again sliced another way", async () => {
    const load = vi.fn(
      async (by: MetricsBy): Promise<MetricsReport> =>
        by === "task"
          ? report(by, [slice("booking", {}), slice("outbox", { attempts: 10, completed: 4, intended_success: 0.4, wrong_target_rate: 0, approvals: 3, confirmation_burden: 0.75, policy_denials: 5 })])
          : report(by, [slice("commit", { attempts: 18 })]),
    );
    render(<MetricsPanel load={load} />);
    const chart = await screen.findByRole("img", { name: /^Intended-state success:/ });
    expect(chart.getAttribute("aria-label")).toBe("Intended-state success: booking 38%, outbox 40%");
    expect(screen.getByRole("img", { name: /^Wrong-target rate:/ }).getAttribute("aria-label")).toBe("Wrong-target rate: booking 13%, outbox 0%");
    const outbox = screen.getByRole("row", { name: /^outbox/ });
    const cells = within(outbox).getAllByRole("cell").map((c) => c.textContent);
    expect(cells).toEqual(["1", "10", "4", "40%", "0%", "0%", "0", "0.75", "0", "0", "0", "5", "0", "0 / 477 / 424"]);
    fireEvent.change(screen.getByLabelText("Slice by"), { target: { value: "risk" } });
    expect(await screen.findByRole("row", { name: /^commit/ })).toBeTruthy();
    expect(load).toHaveBeenLastCalledWith("risk");
  });

  it("explains every metric in a help popover", async () => {
    render(<MetricsPanel load={async (by) => report(by, [slice("booking", {})])} />);
    fireEvent.click(await screen.findByRole("button", { name: "What is confirmation burden?" }));
    expect(screen.getByRole("note").textContent).toMatch(/approvals asked of the user per completed attempt/);
  });

  it("says when there is nothing yet, and when the history cannot be read", async () => {
    const { unmount } = render(<MetricsPanel load={async (by) => report(by, [])} />);
    expect(await screen.findByText(/No finished attempts yet/)).toBeTruthy();
    unmount();
    render(<MetricsPanel load={() => Promise.reject(new Error("the store is locked"))} />);
    expect((await screen.findByRole("alert")).textContent).toMatch(/the store is locked/);
  });
});
