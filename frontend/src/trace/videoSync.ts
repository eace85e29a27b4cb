// Keeps an attempt's recorded video and its steps in step: the video starts when the attempt's
// page opened, within a few ms of the attempt's start, so a step's start_ms is its place in
// the video. Pure, so the mapping is testable without a media element.
import type { Step } from "../api/types";

/** The video time, in seconds, at which step begins. */
export function seekTime(step: Pick<Step, "start_ms">): number {
  return Math.max(0, step.start_ms) / 1000;
}

/**
 * The position in steps of the step playing at time seconds into the video: the one whose
 * [start_ms, start_ms + duration_ms) holds it, or null between steps and outside them.
 */
export function stepAt(time: number, steps: readonly Pick<Step, "start_ms" | "duration_ms">[]): number | null {
  const ms = time * 1000;
  const k = steps.findIndex((s) => s.start_ms <= ms && ms < s.start_ms + s.duration_ms);
  return k < 0 ? null : k;
}
