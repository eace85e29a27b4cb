// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunSummary } from "../api/types";
import { ENTRY_HEIGHT, HistoryList } from "./HistoryList";

/** n runs, the newest first, every tenth with a wrong attempt. */
function history(n: number): RunSummary[] {
  return Array.from({ length: n }, (_, k) => {
    const at = new Date(Date.UTC(2026, 0, 1) - k * 60_000).toISOString();
    return { id: `run-${String(k).padStart(4, "0")}`, task: "booking", created: at, added: at, status: "imported", source: `h${k}.json`, attempts: 1, completed: 0, wrong: k % 10 === 0 ? 1 : 0 };
  });
}

function renderList(runs: RunSummary[], onOpen = vi.fn()) {
  render(<HistoryList runs={runs} current={null} onOpen={onOpen} onDelete={vi.fn()} onCompare={vi.fn()} onOpenSuite={vi.fn()} resizer={null} />);
  return within(screen.getByRole("navigation", { name: "Run history" }));
}

describe("HistoryList", () => {
  it("draws a window of a history of 1,000 runs, the list as tall as all of them", () => {
    const nav = renderList(history(1000));
    expect(nav.getByRole("status").textContent).toBe("1000 runs");
    const entries = nav.getAllByRole("listitem");
    expect(entries.length).toBeLessThan(30);
    expect(entries[0].textContent).toContain("run-0000");
    expect(nav.getByRole("list").style.height).toBe(`${1000 * ENTRY_HEIGHT}px`);
  });

  it("draws the entries scrolled to, and filters over all of them", () => {
    const nav = renderList(history(1000));
    const scroller = nav.getByRole("list").parentElement!;
    scroller.scrollTop = 500 * ENTRY_HEIGHT;
    fireEvent.scroll(scroller);
    expect(nav.getByTestId("run-run-0500").style.top).toBe(`${500 * ENTRY_HEIGHT}px`);
    expect(nav.queryByTestId("run-run-0000")).toBeNull();
    fireEvent.click(nav.getByRole("checkbox", { name: /wrong/i }));
    expect(nav.getByRole("status").textContent).toBe("100 of 1000 runs");
  });

  describe("measured before its first paint", () => {
    afterEach(() => {
      // jsdom's own getter is Element's, which this shadowed.
      delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
    });

    /** Lays the list's scrolled area out h px tall (jsdom lays nothing out). */
    function scrollerHeight(h: number) {
      Object.defineProperty(HTMLElement.prototype, "clientHeight", {
        configurable: true,
        get(this: HTMLElement) {
          return this.classList.contains("history-scroll") ? h : 0;
        },
      });
    }

    it("draws every entry a tall list shows, and a few either side, before any scroll", () => {
      scrollerHeight(1600);
      const entries = renderList(history(1000)).getAllByRole("listitem");
      // 1600 px show 21 entries and part of a 22nd; six more are drawn beyond them.
      expect(entries).toHaveLength(Math.ceil(1600 / ENTRY_HEIGHT) + 6);
    });

    it("draws only the few entries a short list shows", () => {
      scrollerHeight(150);
      expect(renderList(history(1000)).getAllByRole("listitem")).toHaveLength(Math.ceil(150 / ENTRY_HEIGHT) + 6);
    });
  });
});
