// How the attempts table reads an attempt: each verdict as a cell, marked wrong when it
// disagrees with saved-as-asked (the ground truth), and the totals row. Pure.
import type { Attempt, Disagreement, VerdictKey } from "./api/types";

/** The table's columns after the attempt's title, in order. */
export const COLUMNS: { key: VerdictKey; label: string; hint: string }[] = [
  { key: "saved_as_asked", label: "Saved as asked", hint: "a committed record with the requested title and room" },
  { key: "notice", label: "Success notice", hint: "“Reservation saved” shown" },
  { key: "parallax", label: "Parallax's check", hint: "the earlier agent's completion rule" },
  { key: "gate", label: "Completion gate", hint: "this rebuild's check" },
  { key: "terminal", label: "Terminal", hint: "how the attempt ended" },
];

/** One table cell. */
export interface Cell {
  text: string;
  /** True when a verdict disagrees with saved-as-asked. */
  wrong: boolean;
  evidence: string;
  /** Set when replay recomputed this cell differently from what the file recorded. */
  disagreement?: Disagreement;
}

/** The verdict for one column of an attempt: done and its evidence. */
function verdictOf(a: Attempt, key: Exclude<VerdictKey, "terminal">): { done: boolean; evidence: string } {
  if (key === "gate") {
    const failed = (a.verdicts.gate.conditions ?? []).filter((c) => !c.done).map((c) => c.label);
    const evidence = a.verdicts.gate.done ? "all conditions hold" : `not holding: ${failed.join(", ") || "no conditions"}`;
    return { done: a.verdicts.gate.done, evidence };
  }
  return a.verdicts[key];
}

/** The cells of one attempt's row, keyed by column; disagreements are matched by slug. */
export function rowCells(a: Attempt, disagreements: Disagreement[] = []): Record<VerdictKey, Cell> {
  const truth = a.verdicts.saved_as_asked.done;
  const mark = (key: VerdictKey, cell: Omit<Cell, "disagreement">): Cell => {
    const d = disagreements.find((x) => x.attempt === a.attempt && x.verdict === key);
    return d ? { ...cell, disagreement: d } : cell;
  };
  const judged = (key: "notice" | "parallax" | "gate") => {
    const v = verdictOf(a, key);
    return mark(key, { text: v.done ? "done" : "not done", wrong: v.done !== truth, evidence: v.evidence });
  };
  return {
    saved_as_asked: mark("saved_as_asked", { text: truth ? "yes" : "no", wrong: false, evidence: a.verdicts.saved_as_asked.evidence }),
    notice: judged("notice"),
    parallax: judged("parallax"),
    gate: judged("gate"),
    terminal: mark("terminal", { text: a.terminal, wrong: false, evidence: a.reason }),
  };
}

/** The totals row: how many were saved as asked, how many of each verdict were wrong. */
export function totals(attempts: Attempt[]): Record<VerdictKey, string> {
  const n = attempts.length;
  const count = (pred: (a: Attempt) => boolean) => attempts.filter(pred).length;
  const wrong = (key: "notice" | "parallax" | "gate") =>
    `wrong: ${count((a) => verdictOf(a, key).done !== a.verdicts.saved_as_asked.done)} of ${n}`;
  return {
    saved_as_asked: `yes: ${count((a) => a.verdicts.saved_as_asked.done)} of ${n}`,
    notice: wrong("notice"),
    parallax: wrong("parallax"),
    gate: wrong("gate"),
    terminal: `completed: ${count((a) => a.terminal === "completed")} of ${n}`,
  };
}
