// Whether a step's page evidence was captured at the attempt's viewport: a sample read while
// the page was laid out at another size (a watcher once resized it), a screenshot of another
// shape, or a target box measured in another viewport shows the wrong page, and the trace says
// so. Pure.
import type { Sample, Size, Step } from "../api/types";

const size = (s: Size) => `${s.width}×${s.height}`;

/**
 * An image of size shot shows a viewport vp at one scale in both directions (a screenshot may
 * be larger by the device pixel ratio), within rounding.
 */
function sameShape(shot: Size, vp: Size): boolean {
  const scale = shot.width / vp.width;
  return scale >= 1 && Math.abs(shot.height - scale * vp.height) <= Math.max(1, scale);
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
    if (s.screenshot_size && !sameShape(s.screenshot_size, vp)) {
      return `The screenshot ${name} this step is ${size(s.screenshot_size)}, not the shape of the attempt's ${size(vp)}.`;
    }
  }
  const b = step.target_box;
  if (b && (b.viewport_width !== vp.width || b.viewport_height !== vp.height)) {
    return `The target's box was measured at ${b.viewport_width}×${b.viewport_height}, not the attempt's ${size(vp)}: it may not sit on its element.`;
  }
  return null;
}
