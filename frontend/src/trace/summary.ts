// A step as the step list, the timeline and the filmstrip show it, worked out from a whole
// step the way the backend's agent.Step.Summary does: for a live attempt, whose steps arrive
// whole, and for an attempt that finished live. A stored run's summaries come from the
// backend (History.Header). Pure.
import type { Attempt, AttemptHeader, Step, StepSummary } from "../api/types";
import { stepSaidDone } from "./claim";
import { targetText } from "./target";

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
 * The step an attempt's trace opens on, where what happened is seen: for an attempt that did
 * not complete, its first step that failed, else its last (where the gate was last judged);
 * for one that completed, its first. A long attempt whose summaries are not in its header
 * opens on its last step when it did not complete.
 */
export function decisiveStep(a: AttemptHeader): number {
  if (a.terminal === "completed" || a.step_count === 0) return 0;
  const failed = a.steps?.findIndex((s) => s.failed) ?? -1;
  return failed >= 0 ? failed : a.step_count - 1;
}
