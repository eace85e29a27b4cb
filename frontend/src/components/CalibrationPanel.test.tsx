// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Calibrated, CalibrationReport, MetricsBy } from "../api/types";
import { CalibrationPanel, rateText, sliceCaption } from "./CalibrationPanel";

const ref = (attempt: string) => ({ run: "r1", attempt });
const rate = (k: number, n: number, lo: number, hi: number) => ({ k, n, interval: { lo, hi } });

const judge: Calibrated = {
  signal: "judge",
  label: "model judge",
  against: "truth",
  confusion: {
    true_done: [ref("saves-normally"), ref("slow-save-condition-wait"), ref("renamed-button-alias")],
    false_done: [ref("notice-nothing-saved"), ref("wrong-room")],
    false_not_done: null,
    true_not_done: [ref("save-refused"), ref("fixed-wait-slow-save"), ref("renamed-button-exact")],
    unconfirmed: null,
  },
  false_done: rate(2, 8, 0.0709, 0.5907),
  precision: rate(3, 5, 0.2307, 0.8824),
  recall: rate(3, 3, 0.4385, 1),
};

const report = (by: MetricsBy): CalibrationReport => ({
  by,
  slices: [{ key: "booking", signals: [judge] }],
  overall: { key: "overall", signals: [judge] },
});

describe("CalibrationPanel", () => {
  it("tables each signal's cells and rates, lists a cell's attempts and opens one", async () => {
    const load = vi.fn(async (by: MetricsBy) => report(by));
    const onOpen = vi.fn();
    render(<CalibrationPanel load={load} onOpen={onOpen} />);
    const table = await screen.findByRole("table", { name: "Task: booking" });
    const row = within(table).getByRole("row", { name: /^model judge/ });
    expect(within(row).getAllByRole("cell").map((c) => c.textContent)).toEqual([
      "ground truth", "3", "2", "0", "3", "0", "2/8 [7%, 59%]", "3/5 [23%, 88%]", "3/3 [44%, 100%]",
    ]);
    const wrong = within(row).getByRole("button", { name: "model judge against the truth, done, wrong: 2 attempts" });
    expect((within(row).getByRole("button", { name: /not done, wrong: 0 attempts/ }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(wrong);
    expect(wrong.getAttribute("aria-pressed")).toBe("true");
    const listed = screen.getByRole("region", { name: "Attempts: model judge against the truth, done, wrong" });
    fireEvent.click(within(listed).getByRole("button", { name: /wrong-room/ }));
    expect(onOpen).toHaveBeenCalledWith({ run: "r1", attempt: "wrong-room" });
    expect(screen.getByRole("table", { name: "Overall: every attempt of booking (1 by task)" })).toBeTruthy();
    expect(load).toHaveBeenLastCalledWith("task", []);
  });

  it("reads again over the runs named, sliced another way", async () => {
    const load = vi.fn(async (by: MetricsBy) => report(by));
    render(<CalibrationPanel load={load} onOpen={() => {}} />);
    await screen.findByRole("table", { name: "Task: booking" });
    fireEvent.change(screen.getByLabelText("Over runs"), { target: { value: "r1, r2" } });
    fireEvent.click(screen.getByRole("button", { name: "Refresh the calibration" }));
    fireEvent.change(screen.getByLabelText("Calibrate by"), { target: { value: "attempt" } });
    await vi.waitFor(() => expect(load).toHaveBeenLastCalledWith("attempt", ["r1", "r2"]));
  });

  it("says what it could not read, and an empty history", async () => {
    const { unmount } = render(<CalibrationPanel load={async () => Promise.reject(new Error("store closed"))} onOpen={() => {}} />);
    expect((await screen.findByRole("alert")).textContent).toMatch(/store closed/);
    unmount();
    render(<CalibrationPanel load={async (by) => ({ by, slices: [], overall: { key: "overall", signals: [] } })} onOpen={() => {}} />);
    expect(await screen.findByText(/No finished attempts yet/)).toBeTruthy();
  });

  it("labels each slice by what it pools, and a signal by the labels it pools", async () => {
    const notice = (label: string, pooled?: string[]): Calibrated => ({ ...judge, signal: "notice", label, pooled });
    const load = async (by: MetricsBy): Promise<CalibrationReport> => ({
      by,
      slices: [
        { key: "booking", signals: [notice('"Reservation saved" notice')] },
        { key: "checkout", signals: [notice('"Order placed" notice')] },
      ],
      overall: { key: "overall", signals: [notice('"Reservation saved" notice', ['"Reservation saved" notice', '"Order placed" notice'])] },
    });
    render(<CalibrationPanel load={load} onOpen={() => {}} />);
    const overall = await screen.findByRole("table", { name: "Overall: every attempt of booking, checkout (2 by task)" });
    expect(within(overall).getByRole("rowheader").textContent).toBe('"Reservation saved" notice pools 2: "Reservation saved" notice; "Order placed" notice');
    expect(within(screen.getByRole("table", { name: "Task: checkout" })).getByRole("rowheader").textContent).toBe('"Order placed" notice');
    const many = Array.from({ length: 9 }, (_, i) => `t${i}`);
    expect(sliceCaption("lab", "overall", many)).toBe("Overall: every attempt of t0, t1, t2, t3, t4 and 4 more (9 by lab)");
  });

  it("brings a picked cell's attempts into view", async () => {
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    render(<CalibrationPanel load={async (by) => report(by)} onOpen={() => {}} />);
    const table = await screen.findByRole("table", { name: /^Overall/ });
    fireEvent.click(within(table).getByRole("button", { name: "model judge against the truth, done, right: 3 attempts" }));
    const listed = screen.getByRole("region", { name: "Attempts: model judge against the truth, done, right" });
    expect(scrolled).toHaveBeenCalledWith({ block: "nearest" });
    expect(scrolled.mock.contexts.at(-1)).toBe(listed);
  });

  it("prints a rate as the command line does", () => {
    expect(rateText(rate(0, 0, 0, 1))).toBe("–");
    expect(rateText(rate(2, 8, 0.0709, 0.5907))).toBe("2/8 [7%, 59%]");
  });
});
