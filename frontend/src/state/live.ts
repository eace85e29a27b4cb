// The live view of a run, built from `run` progress events. Pure: applyProgress returns a new
// state, so the reducer is testable without a backend.
import type { AppEvent, Attempt, Check, GoingRun, Progress, RunStatus, RunSummary, Step } from "../api/types";

/** What the window knows about the run in progress. */
export interface LiveState {
  /** The run's id; null until Runs.Start answers or run-started arrives. */
  runId: string | null;
  status: RunStatus;
  /** The slugs this run will try, in order. */
  planned: string[];
  /** The slugs started so far, in order; the last one is running while status is "running". */
  started: string[];
  /** The running attempt's place in the batch (1-based) and the batch's size, as the runner says. */
  position: { index: number; total: number } | null;
  /** Steps of attempts still running, by slug. */
  steps: Record<string, Step[]>;
  /** The app events seen so far, by slug. */
  events: Record<string, AppEvent[]>;
  /** The latest gate check, by slug. */
  checks: Record<string, Check>;
  /** Finished attempts with their verdicts, by slug. */
  finished: Record<string, Attempt>;
  /** The newest live screenshot's path in the run's media folder, by slug. */
  frames: Record<string, string>;
  /** The newest screencast frame of each running attempt's page, as a data: URL, by slug. */
  screens: Record<string, string>;
  /** Why an attempt's page cannot be watched live, by slug. */
  unwatchable: Record<string, string>;
  /** While an attempt waits for a model (every model refused), what it says, by slug. */
  waiting: Record<string, string>;
  /** Every error the run reported, in order, with the attempt it came from when it names one. */
  errors: RunError[];
  /** The highest event number folded in: an event numbered at or below it is already here. */
  seen: number;
  /** The process running the run when it is not this window ("observatory mcp, pid 4242"). */
  elsewhere?: string;
}

/** An error a run reported: what went wrong, and in which attempt when it says. */
export interface RunError {
  message: string;
  slug?: string;
}

/** The state right after the user asked for planned slugs, before the backend answers. */
export function startLive(planned: string[]): LiveState {
  return {
    runId: null,
    status: "running",
    planned,
    started: [],
    position: null,
    steps: {},
    events: {},
    checks: {},
    finished: {},
    frames: {},
    screens: {},
    unwatchable: {},
    waiting: {},
    errors: [],
    seen: 0,
  };
}

/** The live view of a run that was going when the window opened: its events so far folded
 * into a view of its planned attempts. */
export function resumeLive(g: GoingRun): LiveState {
  return foldAll({ ...startLive(g.planned ?? []), runId: g.id, elsewhere: g.elsewhere || undefined }, g.events ?? []);
}

/** s with every event of ps folded in, in order. */
export function foldAll(s: LiveState, ps: Progress[]): LiveState {
  return ps.reduce(applyProgress, s);
}

/** The slug the run is on now, or null between attempts and after the run. */
export function currentSlug(s: LiveState): string | null {
  const last = s.started[s.started.length - 1];
  return s.status === "running" && last && !s.finished[last] ? last : null;
}

/** The attempts running now, in the order they started. */
export function inFlight(s: LiveState): string[] {
  return s.status === "running" ? s.started.filter((slug) => !s.finished[slug]) : [];
}

/** Folds one progress event into the state; events of another run, and numbered events
 * already folded in, are ignored. */
export function applyProgress(s: LiveState, p: Progress): LiveState {
  if (s.runId !== null && p.run_id !== s.runId) return s;
  if (p.seq !== undefined && p.seq <= s.seen) return s;
  const slug = p.slug ?? p.attempt?.attempt ?? currentSlug(s) ?? "";
  const next: LiveState = { ...s, runId: p.run_id, seen: p.seq ?? s.seen };
  if (p.events?.length) next.events = { ...s.events, [slug]: [...(s.events[slug] ?? []), ...p.events] };
  switch (p.kind) {
    case "run-started":
      return next;
    case "attempt-started":
      return {
        ...next,
        started: s.started.includes(slug) ? s.started : [...s.started, slug],
        position: p.index && p.total ? { index: p.index, total: p.total } : s.position,
        steps: { ...s.steps, [slug]: [] },
      };
    case "step":
      return p.step ? { ...next, steps: { ...s.steps, [slug]: [...(s.steps[slug] ?? []), p.step] } } : next;
    case "check":
      return p.check ? { ...next, checks: { ...s.checks, [slug]: p.check } } : next;
    case "frame":
      return p.frame ? { ...next, frames: { ...s.frames, [slug]: p.frame } } : next;
    case "screencast":
      if (s.finished[slug]) return s;
      return p.live
        ? { ...next, screens: { ...s.screens, [slug]: `data:image/jpeg;base64,${p.live.jpeg}` } }
        : { ...next, unwatchable: { ...s.unwatchable, [slug]: p.message ?? "this attempt's page cannot be watched live" } };
    case "attempt-finished":
      return p.attempt
        ? { ...next, finished: { ...s.finished, [p.attempt.attempt]: p.attempt }, waiting: without(s.waiting, slug), screens: without(s.screens, slug) }
        : next;
    case "media-saved": {
      const done = s.finished[slug];
      return done && p.media ? { ...next, finished: { ...s.finished, [slug]: { ...done, ...p.media } } } : next;
    }
    case "model-wait":
      return { ...next, waiting: p.waiting ? { ...s.waiting, [slug]: p.message ?? "waiting for a model" } : without(s.waiting, slug) };
    case "run-finished":
      return { ...next, status: p.status ?? "finished" };
    case "error":
      return { ...next, errors: [...s.errors, { message: p.message ?? "the run reported an error without a message", slug: p.slug }] };
  }
  return next;
}

/** m without key. */
function without(m: Record<string, string>, key: string): Record<string, string> {
  const { [key]: _, ...rest } = m;
  return rest;
}

/**
 * The run-finished event the live run missed, if the run history says it has ended while the
 * state still shows it running (events sent while the event stream was reconnecting are lost);
 * null when nothing was missed or the history does not know the run yet.
 */
export function missedFinish(s: LiveState, history: RunSummary[]): Progress | null {
  if (s.status !== "running" || s.runId === null) return null;
  const ended = history.find((r) => r.id === s.runId && r.status !== "running");
  return ended ? { run_id: ended.id, kind: "run-finished", status: ended.status } : null;
}
