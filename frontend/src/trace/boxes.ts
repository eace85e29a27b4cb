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
  /** The label goes under the box when there is no room above it, at the top of the page. */
  below: boolean;
  /** The label ends at the box's right edge when the box lies in the page's right part. */
  end: boolean;
}

/** Which screenshot is shown. */
export type Shot = "before" | "after";

const pct = (v: number, of: number) => `${(v / of) * 100}%`;

/** Room for a label above a box, in CSS pixels of the page. */
const LABEL_ROOM = 18;

/** b's place over a screenshot of its viewport. */
export function place(b: Box): Pick<Drawn, "left" | "top" | "width" | "height" | "below" | "end"> {
  return {
    left: pct(b.x, b.viewport_width),
    top: pct(b.y, b.viewport_height),
    width: pct(b.width, b.viewport_width),
    height: pct(b.height, b.viewport_height),
    below: b.y < LABEL_ROOM,
    end: b.x + b.width > b.viewport_width * 0.6,
  };
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
