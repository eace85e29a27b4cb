// Which way a comparison of two runs points: run A is the baseline, run B the candidate, and
// a change is a regression or an improvement of the candidate's. Pure.
import type { CompareRow, Comparison, RateComparison, RateRow } from "../api/types";

/** A change in the candidate against the baseline. */
export type Direction = "regression" | "improvement" | null;

/** An attempt's direction: it completed in one run and not in the other; null when neither or both did (or one run lacks it). */
export function rowDirection(r: CompareRow): Direction {
  if (!r.a || !r.b) return null;
  const a = r.a.terminal === "completed";
  const b = r.b.terminal === "completed";
  return a === b ? null : a ? "regression" : "improvement";
}

/** A rate's direction: a significant drop is a regression, a significant rise an improvement. */
export function rateDirection(r: RateRow): Direction {
  if (!r.significant || r.difference === 0) return null;
  return r.difference < 0 ? "regression" : "improvement";
}

/** The rows with a difference first, regressions first among them, each kept in its order otherwise. */
export function changedFirst(rows: CompareRow[]): CompareRow[] {
  const rank = (r: CompareRow) => (rowDirection(r) === "regression" ? 0 : r.differs.length ? 1 : 2);
  return rows.map((r, k) => ({ r, k })).sort((x, y) => rank(x.r) - rank(y.r) || x.k - y.k).map((x) => x.r);
}

/** c with its baseline and candidate swapped. */
export function swapComparison(c: Comparison): Comparison {
  return {
    ...c,
    a: c.b,
    b: c.a,
    rows: c.rows.map((r) => ({ ...r, a: r.b, b: r.a })),
    settings: (c.settings ?? []).map((s) => ({ ...s, a: s.b, b: s.a })),
  };
}

/** r with its baseline and candidate swapped: the change and its interval change sign, and the verdict's runs their names. */
export function swapRates(r: RateComparison): RateComparison {
  const row = (x: RateRow): RateRow => ({
    ...x,
    a: x.b,
    b: x.a,
    difference: -x.difference,
    interval: { ...x.interval, lo: -x.interval.hi, hi: -x.interval.lo },
    only_a: x.only_b,
    only_b: x.only_a,
    verdict: x.verdict.replace(/^([AB]) completes/, (_, w: string) => `${w === "A" ? "B" : "A"} completes`),
  });
  return { ...r, a: r.b, b: r.a, rows: r.rows.map(row), overall: row(r.overall) };
}
