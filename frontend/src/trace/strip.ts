// The filmstrip's time axis: each agent step a cell from its start to the next step's start,
// at least a thumbnail wide, the room left shared out by time, so the whole attempt fits the
// strip when it can and scrolls at a thumbnail a step when it cannot. Time maps to a place on
// it piecewise: linearly inside each step's cell, so an app event sits inside the step it
// happened in, at its moment there. Pure.
import { lastAtOrBefore, type Timeline } from "./timeline";

/** One step's cell on the strip, in CSS px from the strip's start. */
export interface Cell {
  /** The position in steps of the step. */
  step: number;
  /** The position in the timeline's marks of the step's mark. */
  mark: number;
  /** When the cell starts: the step's start, in ms. */
  at_ms: number;
  /** How long the cell lasts: until the next step's start, or the attempt's end. */
  span_ms: number;
  x: number;
  w: number;
}

/** A timeline laid out along a strip. */
export interface Strip {
  cells: Cell[];
  /** The strip's whole width, in px: the room given, or more when it must scroll. */
  width: number;
  /** The place of a moment, in px from the strip's start. */
  xAt(ms: number): number;
  /** The moment at a place, in ms: xAt's inverse. */
  msAt(x: number): number;
}

/**
 * Lays line out along room px with each step at least minW px wide. Steps share what is left
 * over in proportion to how long each lasted; without steps (a live attempt's first events)
 * time is linear over the room.
 */
export function layoutStrip(line: Timeline, room: number, minW: number): Strip {
  const starts = line.stepMark.map((m) => line.marks[m].at_ms);
  const n = starts.length;
  const end = Math.max(line.end_ms, n ? starts[n - 1] : 0);
  if (n === 0) {
    const width = Math.max(room, 1);
    return {
      cells: [],
      width,
      xAt: (ms) => (Math.max(0, Math.min(ms, end)) / end) * width,
      msAt: (x) => (Math.max(0, Math.min(x, width)) / width) * end,
    };
  }
  const spans = starts.map((t, k) => Math.max(0, (k + 1 < n ? starts[k + 1] : end) - t));
  const total = spans.reduce((a, b) => a + b, 0);
  const spare = Math.max(0, room - n * minW);
  const cells: Cell[] = [];
  let x = 0;
  starts.forEach((t, k) => {
    const w = minW + (total > 0 ? (spare * spans[k]) / total : spare / n);
    cells.push({ step: k, mark: line.stepMark[k], at_ms: t, span_ms: spans[k], x, w });
    x += w;
  });
  const xAt = (ms: number) => {
    const k = Math.max(0, lastAtOrBefore(ms, (j) => cells[j].at_ms, n));
    const c = cells[k];
    const into = c.span_ms > 0 ? Math.max(0, Math.min(1, (ms - c.at_ms) / c.span_ms)) : 0;
    return c.x + into * c.w;
  };
  const msAt = (px: number) => {
    const k = Math.max(0, lastAtOrBefore(px, (j) => cells[j].x, n));
    const c = cells[k];
    return c.at_ms + Math.max(0, Math.min(1, (px - c.x) / c.w)) * c.span_ms;
  };
  return { cells, width: x, xAt, msAt };
}

/** The positions in cells of the first and last cell that reach into [from, to] px, or [0, -1] when none does. */
export function cellsIn(strip: Strip, from: number, to: number): [number, number] {
  const { cells } = strip;
  const first = Math.max(0, lastAtOrBefore(from, (k) => cells[k].x, cells.length));
  const last = lastAtOrBefore(to, (k) => cells[k].x, cells.length);
  return last < first ? [0, -1] : [first, last];
}

/**
 * Where the strip scrolls to show the span [x, x + w] within room px from scroll: where it is
 * when the span is in view already, else with the span a third of the way in.
 */
export function scrollToShow(x: number, w: number, scroll: number, room: number, width: number): number {
  if (x >= scroll && x + w <= scroll + room) return scroll;
  return Math.max(0, Math.min(x - room / 3, width - room));
}

/**
 * The mark a key moves to from sel on the strip's lanes, or undefined when the key does not
 * move: ←/→ (Home/End) to the previous/next (first/last) mark on the same lane, so on the
 * steps' lane they step as they do anywhere in the trace; ↓ from a step to the first event or
 * check at or after it (else the last before it), ↑ from an event or a check to its step.
 */
export function laneMove(line: Timeline, sel: number, key: string): number | undefined {
  const { marks, stepMark } = line;
  const steps = new Set(stepMark);
  const onSteps = steps.has(sel);
  const others: number[] = [];
  marks.forEach((_, k) => !steps.has(k) && others.push(k));
  const lane = onSteps ? stepMark : others;
  const at = lane.indexOf(sel);
  const to = { ArrowLeft: lane[at - 1], ArrowRight: lane[at + 1], Home: lane[0], End: lane[lane.length - 1] }[key];
  if (to !== undefined || key === "ArrowLeft" || key === "ArrowRight" || key === "Home" || key === "End") return to ?? sel;
  if (key === "ArrowDown" && onSteps && others.length) return others.find((k) => k > sel) ?? others[others.length - 1];
  if (key === "ArrowUp" && !onSteps && stepMark.length) return stepMark[marks[sel].step];
  return undefined;
}
