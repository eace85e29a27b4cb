// How the attempts table reads an attempt: each verdict as a cell, marked wrong when it
// disagrees with saved-as-asked (the ground truth), and the totals row. Pure.
import type { Attempt, Disagreement, VerdictKey, Verdicts } from "./api/types";

/** The four verdicts, without the terminal state. */
export type JudgedKey = Exclude<VerdictKey, "terminal">;

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

/** One verdict: done and its evidence. */
function verdictOf(v: Verdicts, key: JudgedKey): { done: boolean; evidence: string } {
  if (key === "gate") {
    const failed = (v.gate.conditions ?? []).filter((c) => !c.done).map((c) => c.label);
    const evidence = v.gate.done ? "all conditions hold" : `not holding: ${failed.join(", ") || "no conditions"}`;
    return { done: v.gate.done, evidence };
  }
  return v[key];
}

/** The four verdicts as cells: "yes"/"no" for ground truth, "done"/"not done" for the checks,
 * each check marked wrong when it disagrees with ground truth. */
export function verdictCells(v: Verdicts): Record<JudgedKey, Cell> {
  const truth = v.saved_as_asked.done;
  const judged = (key: "notice" | "parallax" | "gate"): Cell => {
    const j = verdictOf(v, key);
    return { text: j.done ? "done" : "not done", wrong: j.done !== truth, evidence: j.evidence };
  };
  return {
    saved_as_asked: { text: truth ? "yes" : "no", wrong: false, evidence: v.saved_as_asked.evidence },
    notice: judged("notice"),
    parallax: judged("parallax"),
    gate: judged("gate"),
  };
}

/** The cells of one attempt's row, keyed by column; disagreements are matched by slug. */
export function rowCells(a: Attempt, disagreements: Disagreement[] = []): Record<VerdictKey, Cell> {
  const cells: Record<VerdictKey, Cell> = { ...verdictCells(a.verdicts), terminal: { text: a.terminal, wrong: false, evidence: a.reason } };
  for (const d of disagreements) {
    if (d.attempt === a.attempt && d.verdict in cells) {
      const key = d.verdict as VerdictKey;
      cells[key] = { ...cells[key], disagreement: d };
    }
  }
  return cells;
}

/** The totals row: how many were saved as asked, how many of each verdict were wrong. */
export function totals(attempts: Attempt[]): Record<VerdictKey, string> {
  const n = attempts.length;
  const count = (pred: (a: Attempt) => boolean) => attempts.filter(pred).length;
  const wrong = (key: "notice" | "parallax" | "gate") =>
    `wrong: ${count((a) => verdictOf(a.verdicts, key).done !== a.verdicts.saved_as_asked.done)} of ${n}`;
  return {
    saved_as_asked: `yes: ${count((a) => a.verdicts.saved_as_asked.done)} of ${n}`,
    notice: wrong("notice"),
    parallax: wrong("parallax"),
    gate: wrong("gate"),
    terminal: `completed: ${count((a) => a.terminal === "completed")} of ${n}`,
  };
}
