// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ledger } from "../test/fixtures";
import { LedgerPanel } from "./LedgerPanel";

describe("LedgerPanel", () => {
  it("shows one row per step with its principal, fingerprint, decision, result and verification, and exports it", async () => {
    const load = vi.fn().mockResolvedValue(ledger);
    const onExport = vi.fn();
    render(<LedgerPanel runId="run-1" slug="price-changed" load={load} onExport={onExport} />);
    const table = await screen.findByRole("table", { name: "Action ledger" });
    expect(load).toHaveBeenCalledWith("run-1", "price-changed");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(2);
    const pay = within(rows[1]).getAllByRole("cell").map((c) => c.textContent);
    expect(pay.slice(0, 6)).toEqual(["2", "Pay for the cart", "button[Pay] → Pay", "alice", "310 ms", "0f1e2d3c4b5a6978"]);
    expect(pay[6]).toContain("commit · high risk · allow");
    expect(pay[7]).toBe("not run: approval not given");
    expect(pay[8]).toContain('the amount changed from "20.00" to "25.00"');
    fireEvent.click(screen.getByRole("button", { name: "Export CSV" }));
    expect(onExport).toHaveBeenCalledOnce();
    expect(screen.getByRole("button", { name: "What is the action ledger?" })).toBeTruthy();
  });

  it("says why the ledger could not be loaded", async () => {
    const load = vi.fn().mockRejectedValue(new Error('run run-1 has no attempt "nope"'));
    render(<LedgerPanel runId="run-1" slug="nope" load={load} onExport={() => {}} />);
    expect((await screen.findByRole("alert")).textContent).toContain('no attempt "nope"');
    expect((screen.getByRole("button", { name: "Export CSV" }) as HTMLButtonElement).disabled).toBe(true);
  });
});
