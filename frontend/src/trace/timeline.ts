// One timeline of an attempt: its agent steps, the app's events and the oracle's checks in
// time order, each with the completion gate's state at that point, and the lookups that keep
// the step list, the replay, the ruler and the video on one selection. Built once per attempt;
// every lookup while stepping or playing is a binary search or an index, never a scan of the
// run. Pure.
import type { AppEvent, Frame, StepSummary } from "../api/types";

/**
 * The position of the last of n ascending times (read through at) at or before ms, or -1 when
 * all are later. A binary search: stepping and playing cost nothing proportional to the run.
 */
export function lastAtOrBefore(ms: number, at: (k: number) => number, n: number): number {
  let lo = 0;
  let hi = n - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (at(mid) <= ms) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** What a timeline mark records: an agent step, an app event or an oracle check. */
export type MarkKind = "step" | "event" | "check";

/** One point on the timeline. */
export interface Mark {
  kind: MarkKind;
  /** When it happened, in ms from the attempt's start. */
  at_ms: number;
  /** What happened, in words. */
  label: string;
  /** The position in steps of the step it belongs to: the last started at or before it. */
  step: number;
  /** The replay frame that shows the app's state at this point (0: before any event). */
  frame: number;
  /** The gate at this point: done, not done, or null where nothing says (no event log). */
  gate: boolean | null;
  /** A step's after screenshot, for the filmstrip. */
  shot?: string;
  /** A step that ended in an error. */
  error?: boolean;
}

/** An attempt's timeline: its marks in time order, where each step's mark is, and its span. */
export interface Timeline {
  marks: Mark[];
  /** stepMark[k] is the position in marks of step k's mark. */
  stepMark: number[];
  /** The time of the last thing on it, in ms; at least 1. */
  end_ms: number;
}

/** What the timeline is built from. */
export interface TimelineInput {
  steps: readonly StepSummary[];
  events: readonly AppEvent[];
  /** The replay's frames: frames[0] before any event, frames[k + 1] after events[k]. */
  frames?: readonly Frame[] | null;
  /** The final check: the gate judged from the oracle's answers, once the attempt ended. */
  final?: { gate: boolean; answers: number };
}

/** The replay frame at ms: how many events had happened by then. */
export function frameAt(ms: number, events: readonly Pick<AppEvent, "at_ms">[]): number {
  return lastAtOrBefore(ms, (k) => events[k].at_ms, events.length) + 1;
}

/**
 * The position in steps of the step at ms: the last started at or before it (a pause between
 * steps stays on the step before; the video starts a few ms before the first step), else the
 * first.
 */
export function stepAtMs(ms: number, steps: readonly Pick<StepSummary, "start_ms">[]): number {
  return Math.max(0, lastAtOrBefore(ms, (k) => steps[k].start_ms, steps.length));
}

/** When step ends, in ms from the attempt's start. */
export function stepEnd(s: Pick<StepSummary, "start_ms" | "duration_ms">): number {
  return s.start_ms + s.duration_ms;
}

/** The gate's state in frame f, or null when there is no such frame. */
function gateIn(frames: TimelineInput["frames"], f: number): boolean | null {
  return frames?.[f]?.gate.done ?? null;
}

/** A step's label: its number and what it did. */
function stepLabel(s: StepSummary, k: number): string {
  return `Step ${k + 1}: ${s.description}`;
}

/** An event's label: its sequence number, type and data. */
function eventLabel(e: AppEvent): string {
  const data = Object.entries(e.data ?? {}).map(([k, v]) => `${k}=${v}`);
  return [`#${e.seq} ${e.type}`, ...data].join(" ");
}

/** Builds an attempt's timeline; see the module comment. Events at a step's start sort after it. */
export function buildTimeline({ steps, events, frames, final }: TimelineInput): Timeline {
  const marks: Mark[] = [];
  const stepMark: number[] = [];
  let e = 0;
  const pushEvent = () => {
    const ev = events[e];
    marks.push({ kind: "event", at_ms: ev.at_ms, label: eventLabel(ev), step: stepAtMs(ev.at_ms, steps), frame: e + 1, gate: gateIn(frames, e + 1) });
    e++;
  };
  steps.forEach((s, k) => {
    while (e < events.length && events[e].at_ms < s.start_ms) pushEvent();
    const frame = frameAt(stepEnd(s), events);
    stepMark.push(marks.length);
    marks.push({
      kind: s.kind === "verify" ? "check" : "step",
      at_ms: s.start_ms,
      label: stepLabel(s, k),
      step: k,
      frame,
      gate: gateIn(frames, frame),
      shot: s.shot,
      error: !!s.failed,
    });
  });
  while (e < events.length) pushEvent();
  const last = marks.length ? Math.max(marks[marks.length - 1].at_ms, steps.length ? stepEnd(steps[steps.length - 1]) : 0) : 0;
  if (final) {
    marks.push({
      kind: "check",
      at_ms: last,
      label: `Final check: ${final.answers} oracle answer${final.answers === 1 ? "" : "s"}`,
      step: Math.max(0, steps.length - 1),
      frame: events.length,
      gate: final.gate,
    });
  }
  return { marks, stepMark, end_ms: Math.max(1, last) };
}

/** The position in marks of the last mark at or before ms, or 0. */
export function markAt(ms: number, t: Timeline): number {
  return Math.max(0, lastAtOrBefore(ms, (k) => t.marks[k].at_ms, t.marks.length));
}

/** The gate's state in words, for a mark's text. */
export function gateWords(gate: boolean | null): string {
  return gate === null ? "gate not known here" : gate ? "gate done" : "gate not done";
}
