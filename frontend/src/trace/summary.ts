// A step as the step list, the timeline and the filmstrip show it, worked out from a whole
// step the way the backend's agent.Step.Summary does: for a live attempt, whose steps arrive
// whole, and for an attempt that finished live. A stored run's summaries come from the
// backend (History.Header). Pure.
import type { Attempt, AttemptHeader, Step, StepSummary } from "../api/types";
import { stepSaidDone } from "./claim";
import { failed as failedRequest } from "./network";
import { targetText } from "./target";

/** An action meant to change the page, let run, that ran without error and changed no role or name (agent.Step.unchanged). */
function unchanged(s: Step): boolean {
  const acts = s.action.kind === "click" || s.action.kind === "press" || s.action.kind === "submit";
  return acts && s.decision.admission === "allow" && !s.error && !s.unresolved && s.distance === 0 && s.provenance !== "observed";
}

/** The summary of a whole step. */
export function summarize(s: Step): StepSummary {
  return {
    index: s.index,
    description: s.action.description,
    kind: s.action.kind,
    target: targetText(s.action.target) || undefined,
    value: s.action.value || undefined,
    class: s.decision.class,
    admission: s.decision.admission,
    start_ms: s.start_ms,
    duration_ms: s.duration_ms,
    failed: !!s.error,
    failed_requests: s.requests?.filter(failedRequest).length || undefined,
    unchanged: unchanged(s) || undefined,
    shot: s.after.screenshot || s.before.screenshot || undefined,
    turns: s.model_turns?.length ?? 0,
    said_done: stepSaidDone(s),
  };
}

/** Summaries already made, by the whole step: a live attempt's steps are summarised once. */
const made = new WeakMap<Step, StepSummary>();

/** The summaries of whole steps, each made once however often it is asked for. */
export function summaries(steps: readonly Step[]): StepSummary[] {
  return steps.map((s) => {
    let sum = made.get(s);
    if (!sum) made.set(s, (sum = summarize(s)));
    return sum;
  });
}

/** Headers already made, by the whole attempt. */
const headers = new WeakMap<Attempt, AttemptHeader>();

/** The attempt as a header gives it, every step summarised; made once per attempt. */
export function headerOf(a: Attempt): AttemptHeader {
  let h = headers.get(a);
  if (!h) {
    const steps = summaries(a.steps ?? []);
    const turns = steps.reduce((n, s) => n + (s.turns ?? 0), 0);
    h = { ...a, steps, step_count: steps.length, turns, said_done: steps.some((s) => s.said_done) };
    headers.set(a, h);
  }
  return h;
}

/**
 * The step an attempt's trace opens on, the one that decided how it ended. For an attempt that
 * did not complete: its first step that failed before the gate was asked (a missing element,
 * a held commit), else its first step whose requests failed (a save the server refused), else
 * its last action that changed nothing seen (a blind click), else the step where the gate was
 * judged (its first failed step, else its last: the gate after the last step). For one that
 * completed, its first step. A long attempt whose summaries are not in its header opens on
 * its last step when it did not complete.
 */
export function decisiveStep(a: AttemptHeader): number {
  if (a.terminal === "completed" || a.step_count === 0) return 0;
  const steps = a.steps;
  if (!steps) return a.step_count - 1;
  const at = [
    steps.findIndex((s) => s.failed && s.kind !== "verify"),
    steps.findIndex((s) => (s.failed_requests ?? 0) > 0),
    lastUnchanged(steps),
    steps.findIndex((s) => s.failed),
  ].find((k) => k >= 0);
  return at ?? a.step_count - 1;
}

/** The position of the last step that changed nothing seen; -1 when none did. */
function lastUnchanged(steps: readonly StepSummary[]): number {
  for (let k = steps.length - 1; k >= 0; k--) if (steps[k].unchanged) return k;
  return -1;
}

/** How a step list marks a step: what failed in it, in words, as Playwright marks a failed action. */
export interface StepMark {
  /** error: the step failed, or its requests or the gate's check did; held: not let run; warn: changed nothing seen. */
  kind: "ok" | "error" | "held" | "warn";
  /** The mark's words, e.g. "1 request failed", "check failed". */
  text: string;
}

/**
 * The mark of step s; gateFailed is set for the step where the gate was last judged of an
 * attempt that did not complete.
 */
export function stepMark(s: StepSummary, gateFailed: boolean): StepMark {
  if (s.failed) return { kind: "error", text: "error" };
  const reqs = s.failed_requests ?? 0;
  if (reqs > 0) return { kind: "error", text: reqs === 1 ? "1 request failed" : `${reqs} requests failed` };
  if (s.admission !== "allow") return { kind: "held", text: s.admission };
  if (gateFailed) return { kind: "error", text: "check failed" };
  if (s.unchanged) return { kind: "warn", text: "nothing changed" };
  return { kind: "ok", text: "ok" };
}
