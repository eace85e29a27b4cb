// Whether a step's page evidence was captured at the attempt's viewport: a sample read while
// the page was laid out at another size (a watcher once resized it), a screenshot of another
// shape, or a target box measured in another viewport shows the wrong page, and the trace says
// so. Pure.
import type { Sample, Size, Step } from "../api/types";

const size = (s: Size) => `${s.width}×${s.height}`;

/**
 * An image of size shot shows a viewport vp at the sample's device pixel ratio r (absent: 1),
 * within rounding.
 */
function sameShape(shot: Size, vp: Size, r: number): boolean {
  return Math.abs(shot.width - r * vp.width) <= Math.max(1, r) && Math.abs(shot.height - r * vp.height) <= Math.max(1, r);
}

/**
 * How step was not captured at the attempt's viewport vp, in a sentence; null when every
 * capture matches, and when vp or a capture's size was not recorded (older runs), since
 * nothing then says otherwise.
 */
export function miscapture(step: Step, vp: Size | undefined): string | null {
  if (!vp || vp.width <= 0 || vp.height <= 0) return null;
  const sides: [string, Sample][] = [["before", step.before], ["after", step.after]];
  for (const [name, s] of sides) {
    if (s.viewport && (s.viewport.width !== vp.width || s.viewport.height !== vp.height)) {
      return `The page ${name} this step was read at ${size(s.viewport)}, not the attempt's ${size(vp)}: what it shows may not be what the attempt saw.`;
    }
    const r = s.pixel_ratio ?? 1;
    if (s.screenshot_size && !sameShape(s.screenshot_size, vp, r)) {
      const want = r === 1 ? size(vp) : `${size(vp)} at a pixel ratio of ${r}`;
      return `The screenshot ${name} this step is ${size(s.screenshot_size)}, not the attempt's ${want}.`;
    }
  }
  const b = step.target_box;
  if (b && (b.viewport_width !== vp.width || b.viewport_height !== vp.height)) {
    return `The target's box was measured at ${b.viewport_width}×${b.viewport_height}, not the attempt's ${size(vp)}: it may not sit on its element.`;
  }
  return null;
}
