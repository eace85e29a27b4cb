// The boxes a screenshot carries: the acted-on element's, measured just before the action,
// and a miss's nearest candidates, placed as percentages of the recorded viewport so they
// stay on their elements however large the screenshot is shown. Pure.
import type { Box, Candidate, Step } from "../api/types";

/** One box to draw over a screenshot. */
export interface Drawn {
  kind: "target" | "candidate";
  /** The box's place as CSS percentages of the screenshot: left, top, width, height. */
  left: string;
  top: string;
  width: string;
  height: string;
  label: string;
}

/** Which screenshot is shown. */
export type Shot = "before" | "after";

const pct = (v: number, of: number) => `${(v / of) * 100}%`;

/** b's place over a screenshot of its viewport. */
export function place(b: Box): Pick<Drawn, "left" | "top" | "width" | "height"> {
  return {
    left: pct(b.x, b.viewport_width),
    top: pct(b.y, b.viewport_height),
    width: pct(b.width, b.viewport_width),
    height: pct(b.height, b.viewport_height),
  };
}

/** A rectangle in px of the picture as shown. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The space between a box and its label, in px as shown. */
const LABEL_GAP = 2;

/** How much of a and b overlap, in px². */
function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Where a label of size w × h goes beside box, within a picture of size bounds, so that it
 * never covers the box: above it, else below, else after it, else before it; starting at the
 * box's left edge, or ending at its right edge when the box lies in the picture's right half
 * (flipped near an edge), moved back inside the picture. Of the sides that leave the box
 * clear it takes the first that also covers least of avoid (the other boxes and the labels
 * already placed). Only when no side has room (a box that fills the picture) does it take the
 * side where it covers the box least. Returns the label's top-left corner in px of the picture.
 */
export function placeLabel(box: Rect, label: { w: number; h: number }, bounds: { w: number; h: number }, avoid: readonly Rect[] = []): { x: number; y: number } {
  const clampX = (x: number) => Math.max(0, Math.min(x, bounds.w - label.w));
  const clampY = (y: number) => Math.max(0, Math.min(y, bounds.h - label.h));
  const along = clampX(box.x + box.w / 2 > bounds.w / 2 ? box.x + box.w - label.w : box.x);
  const beside = clampY(box.y);
  const sides = [
    { x: along, y: box.y - label.h - LABEL_GAP },
    { x: along, y: box.y + box.h + LABEL_GAP },
    { x: box.x + box.w + LABEL_GAP, y: beside },
    { x: box.x - label.w - LABEL_GAP, y: beside },
  ];
  const inside = sides.filter((p) => p.x >= 0 && p.y >= 0 && p.x + label.w <= bounds.w && p.y + label.h <= bounds.h);
  const rect = (p: { x: number; y: number }) => ({ ...p, w: label.w, h: label.h });
  const covers = (p: { x: number; y: number }) => avoid.reduce((sum, r) => sum + overlap(r, rect(p)), 0);
  const least = (ps: { x: number; y: number }[], cost: (p: { x: number; y: number }) => number) => ps.reduce((best, p) => (cost(p) < cost(best) ? p : best));
  if (inside.length) return least(inside, covers);
  return least(
    sides.map((p) => ({ x: clampX(p.x), y: clampY(p.y) })),
    (p) => overlap(box, rect(p)),
  );
}

/** A candidate in words, as the step's error names it: button "Book a slot" (similarity 0.42). */
export function candidateText(c: Candidate): string {
  return `${c.role} "${c.name.replace(/"/g, '\\"')}" (similarity ${c.similarity.toFixed(2)})`;
}

/**
 * The boxes to draw over the step's screenshot. The target's box shows on both: on the page
 * before the action, where it was measured, and on the page after, labelled as measured
 * before (the element may have moved or gone since). A miss's candidates show on both, since
 * a target that matched nothing was never acted on and the page did not change.
 */
export function boxesOf(step: Step, shot: Shot): Drawn[] {
  const out: Drawn[] = [];
  if (step.target_box) out.push({ kind: "target", ...place(step.target_box), label: shot === "before" ? "target" : "target (before)" });
  (step.candidates ?? []).forEach((c, i) => out.push({ kind: "candidate", ...place(c.box), label: `${i + 1} · ${c.role} "${c.name}"` }));
  return out;
}
