// How the attempts table reads an attempt: its columns come from the task's verdicts (the
// ground truth, each signal, the gate), each check is marked wrong when its call differs from
// the ground truth's (as agent.Verdicts.Wrong does), and a call the oracle could not make is
// "could not confirm", never "not done". Pure.
import type { AttemptHeader, Condition, Disagreement, Gate, Verdict, Verdicts } from "./api/types";

/** What a column shows: the ground truth, a signal (the agent's claim among them), the gate or the terminal state. */
export type ColumnKind = "truth" | "signal" | "gate" | "terminal";

/** One column of the attempts table; key is the id a disagreement names it by. */
export interface Column {
  key: string;
  label: string;
  kind: ColumnKind;
  hint: string;
}

/** The gate's id among the checks, as agent.GateID. */
export const GATE = "gate";

/** "saved as asked" → "Saved as asked": labels as column headings show them. */
export function sentence(label: string): string {
  return label ? label[0].toUpperCase() + label.slice(1) : label;
}

/** The columns after the attempt's title, in order, named by a Verdicts (judged or empty). */
export function columnsOf(v: Verdicts): Column[] {
  return [
    { key: v.truth.id, label: sentence(v.truth.label), kind: "truth", hint: "ground truth, read from the app's authoritative state" },
    ...(v.signals ?? []).map((s): Column => ({
      key: s.id,
      label: sentence(s.label),
      kind: "signal",
      hint: "a cheaper check, marked wrong where it disagrees with the ground truth",
    })),
    { key: GATE, label: "Completion gate", kind: "gate", hint: "done only when every condition holds" },
    { key: "terminal", label: "Terminal", kind: "terminal", hint: "how the attempt ended" },
  ];
}

/** A call in words: what a check said. */
export type Call = "done" | "not done" | "could not confirm";

/** The call of one verdict: "could not confirm" when the oracle could not answer. */
export function callOf(v: Verdict): Call {
  if (v.unconfirmed) return "could not confirm";
  return v.done ? "done" : "not done";
}

/** One table cell. */
export interface Cell {
  text: string;
  /** True when a check's call differs from the ground truth's. */
  wrong: boolean;
  /** True when the oracle could not answer. */
  unconfirmed: boolean;
  /**
   * True for a signal beside a ground truth that could not be confirmed: right or wrong, no one
   * knows. The gate is never tagged so: its own conditions say what it could not confirm, and
   * it may be what stands in for the truth.
   */
  unknown?: boolean;
  evidence: string;
  /** Set when replay recomputed this cell differently from what the file recorded. */
  disagreement?: Disagreement;
}

/** The conditions of a gate that do not hold, in order. */
export function unmet(gate: Gate): Condition[] {
  return (gate.conditions ?? []).filter((c) => !c.done);
}

/** The gate's evidence in one line: which conditions do not hold or could not be confirmed. */
function gateEvidence(g: Gate): string {
  const all = g.conditions ?? [];
  if (g.done) return `all ${all.length} conditions hold`;
  const failing = unmet(g);
  if (failing.length === 0) return "no conditions";
  return failing.map((c) => `${c.label}: ${callOf(c)}`).join("; ");
}

/** The cells of a judged Verdicts (an attempt's, a replay's), keyed by column; no terminal state. */
export function judgedCells(v: Verdicts, columns: Column[]): Record<string, Cell> {
  const truth = v.truth.done;
  const unknown = !!v.truth.unconfirmed;
  const wrong = wrongChecks(v);
  const cells: Record<string, Cell> = {};
  for (const c of columns) {
    if (c.kind === "truth") {
      const text = v.truth.unconfirmed ? "could not confirm" : truth ? "yes" : "no";
      cells[c.key] = { text, wrong: false, unconfirmed: !!v.truth.unconfirmed, evidence: v.truth.evidence };
    } else if (c.kind === "signal") {
      const s = (v.signals ?? []).find((x) => x.id === c.key);
      cells[c.key] = s
        ? { text: callOf(s), wrong: wrong.includes(s.id), unknown, unconfirmed: !!s.unconfirmed, evidence: s.evidence }
        : { text: "—", wrong: false, unconfirmed: false, evidence: "not recorded for this attempt" };
    } else if (c.kind === "gate") {
      cells[c.key] = { text: v.gate.done ? "done" : "not done", wrong: wrong.includes(GATE), unconfirmed: false, evidence: gateEvidence(v.gate) };
    }
  }
  return cells;
}

/** The cells of one attempt's row, keyed by column; a disagreement marks the cell it names exactly. */
export function rowCells(a: AttemptHeader, columns: Column[], disagreements: Disagreement[] = []): Record<string, Cell> {
  const cells = judgedCells(a.verdicts, columns);
  cells.terminal = { text: a.terminal, wrong: false, unconfirmed: false, evidence: a.reason };
  for (const d of disagreements) {
    if (d.attempt === a.attempt && cells[d.verdict]) cells[d.verdict] = { ...cells[d.verdict], disagreement: d };
  }
  return cells;
}

/**
 * The totals row: how many were true, how many of each check were wrong, how many completed.
 * The truth's yes and the checks' wrong count of the attempts whose truth made its call.
 */
export function totals(attempts: AttemptHeader[], columns: Column[]): Record<string, string> {
  const n = attempts.length;
  const count = (pred: (a: AttemptHeader) => boolean) => attempts.filter(pred).length;
  const known = count((a) => !a.verdicts.truth.unconfirmed);
  const out: Record<string, string> = {};
  for (const c of columns) {
    if (c.kind === "truth") {
      const yes = count((a) => !a.verdicts.truth.unconfirmed && a.verdicts.truth.done);
      out[c.key] = known < n ? `yes: ${yes} of ${known} (${n - known} could not confirm)` : `yes: ${yes} of ${n}`;
    }
    if (c.kind === "terminal") out[c.key] = `completed: ${count((a) => a.terminal === "completed")} of ${n}`;
    if (c.kind === "signal" || c.kind === "gate") {
      out[c.key] = `wrong: ${count((a) => wrongChecks(a.verdicts).includes(c.key))} of ${known}`;
    }
  }
  return out;
}

/**
 * The ids of the checks whose call differs from the ground truth's, as agent.Verdicts.Wrong:
 * none against a truth that could not be confirmed, and never a signal that could not be.
 */
export function wrongChecks(v: Verdicts): string[] {
  if (v.truth.unconfirmed) return [];
  const wrong = (v.signals ?? []).filter((s) => !s.unconfirmed && s.done !== v.truth.done).map((s) => s.id);
  return v.gate.done !== v.truth.done ? [...wrong, GATE] : wrong;
}

/**
 * A disagreement's verdict name in words, with the columns' and conditions' labels:
 * "gate.record (evidence)" → "completion gate, Committed record exists (evidence)".
 */
export function verdictName(verdict: string, v: Verdicts): string {
  const m = /^(.*?)( \((?:evidence|could not confirm)\))?$/.exec(verdict)!;
  const [base, suffix = ""] = [m[1], m[2]];
  const named = (): string => {
    if (base === v.truth.id) return v.truth.label;
    if (base === GATE) return "completion gate";
    if (base.startsWith(`${GATE}.`)) {
      const id = base.slice(GATE.length + 1);
      const c = (v.gate.conditions ?? []).find((x) => x.id === id);
      return `completion gate, ${c?.label ?? id}`;
    }
    if (base === "terminal") return "terminal state";
    return (v.signals ?? []).find((s) => s.id === base)?.label ?? base;
  };
  return named() + suffix;
}
