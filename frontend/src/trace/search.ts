// Which steps a search in the step list finds. Pure.
import type { StepSummary } from "../api/types";
import { actionWords } from "./target";

/** A step's searchable words: its description, its action in words, its class and admission, and "error" when it failed. */
function words(s: StepSummary): string {
  return [s.description, actionWords(s.kind, s.target, s.value), s.class, s.admission, s.failed ? "error failed" : "ok", s.said_done ? "done" : ""]
    .join(" ")
    .toLowerCase();
}

/**
 * The positions in steps of those that hold every word of query, whatever the case, in order;
 * null when the query has no words (nothing is filtered).
 */
export function searchSteps(steps: StepSummary[], query: string): number[] | null {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return null;
  const out: number[] = [];
  steps.forEach((s, k) => {
    const w = words(s);
    if (terms.every((t) => w.includes(t))) out.push(k);
  });
  return out;
}
