import { describe, expect, it } from "vitest";
import { noticeNothingSaved } from "../test/fixtures";
import { summaries } from "./summary";
import { buildTimeline } from "./timeline";
import { cellsIn, laneMove, layoutStrip, scrollToShow } from "./strip";

const steps = summaries(noticeNothingSaved.steps!); // starts 0, 41, 77, 102, 131; the last ends at 655
const events = noticeNothingSaved.events!; // at 40, 76, 101, 130, 631, 638, 640
const line = buildTimeline({ steps, events });

describe("layoutStrip", () => {
  it("fits the whole attempt in the room when it can, each step at least a thumbnail wide, the rest shared out by time", () => {
    const strip = layoutStrip(line, 1000, 50);
    expect(strip.width).toBeCloseTo(1000);
    expect(strip.cells.map((c) => c.step)).toEqual([0, 1, 2, 3, 4]);
    expect(strip.cells.map((c) => c.span_ms)).toEqual([41, 36, 25, 29, 524]);
    strip.cells.forEach((c, k) => {
      expect(c.w).toBeGreaterThanOrEqual(50);
      if (k > 0) expect(c.x).toBeCloseTo(strip.cells[k - 1].x + strip.cells[k - 1].w); // boundaries meet
    });
    // 750 px of spare room over 655 ms: the last step, 524 ms of them, gets the most.
    expect(strip.cells[4].w).toBeCloseTo(50 + (750 * 524) / 655);
  });

  it("scrolls at a thumbnail a step when the room is too small", () => {
    const strip = layoutStrip(line, 120, 50);
    expect(strip.width).toBe(250);
    expect(strip.cells.map((c) => c.x)).toEqual([0, 50, 100, 150, 200]);
  });

  it("puts an event inside the step it happened in, at its moment there, and maps back", () => {
    const strip = layoutStrip(line, 1000, 50);
    const [a, b] = strip.cells;
    expect(strip.xAt(40)).toBeCloseTo(a.x + (a.w * 40) / 41); // #1 at 40 ms, just before step 2 at 41
    expect(strip.xAt(41)).toBeCloseTo(b.x);
    expect(strip.xAt(655)).toBeCloseTo(strip.width);
    expect(strip.xAt(-5)).toBe(0);
    for (const ms of [0, 40, 76, 101, 130, 631, 655]) expect(strip.msAt(strip.xAt(ms))).toBeCloseTo(ms);
  });

  it("lays out time linearly when there is no step yet", () => {
    const strip = layoutStrip(buildTimeline({ steps: [], events }), 640, 50);
    expect(strip.cells).toEqual([]);
    expect(strip.xAt(320)).toBeCloseTo((320 / 640) * 640);
    expect(strip.msAt(640)).toBe(640);
  });
});

describe("cellsIn and scrollToShow", () => {
  const strip = layoutStrip(line, 120, 50); // cells at 0, 50, 100, 150, 200

  it("finds the cells reaching into a span", () => {
    expect(cellsIn(strip, 60, 160)).toEqual([1, 3]);
    expect(cellsIn(strip, -100, 10)).toEqual([0, 0]);
    expect(cellsIn(strip, 400, 500)).toEqual([4, 4]);
  });

  it("keeps the scroll while the span is in view, else brings it a third of the way in", () => {
    expect(scrollToShow(50, 50, 0, 120, 250)).toBe(0);
    expect(scrollToShow(150, 50, 0, 120, 250)).toBe(110);
    expect(scrollToShow(200, 50, 0, 120, 250)).toBe(130); // no further than the end
    expect(scrollToShow(0, 50, 130, 120, 250)).toBe(0);
  });
});

describe("laneMove", () => {
  const final = buildTimeline({ steps, events, final: { gate: false, answers: 3 } });
  // step event step event step event step event check(step 5) event event event check(final)
  const kinds = (k: number | undefined) => (k === undefined ? "none" : `${final.marks[k].kind} ${final.marks[k].label.split(":")[0]}`);

  it.each<[number, string, string]>([
    [0, "ArrowRight", "step Step 2"], // steps with the steps, past the event between
    [2, "ArrowLeft", "step Step 1"],
    [0, "End", "check Step 5"],
    [0, "ArrowLeft", "step Step 1"], // stays at the first
    [2, "ArrowDown", "event #2 field-changed field=title value=Spectral scan"], // the first event at or after the step
    [8, "ArrowDown", "event #5 save-answered"],
    [3, "ArrowRight", "event #3 field-changed field=room value=north"], // events with the events
    [11, "ArrowRight", "check Final check"],
    [1, "Home", "event #1 dialog-opened"],
    [5, "ArrowUp", "step Step 3"], // an event's step
    [0, "ArrowUp", "none"],
    [0, "Enter", "none"],
  ])("from mark %d, %s goes to the %s", (from, key, want) => {
    expect(kinds(laneMove(final, from, key))).toBe(want);
  });
});
