import { useState, type ReactNode } from "react";
import type { CompareCall, CompareSide, Comparison, RateComparison, RateRow } from "../api/types";
import { changedFirst, rateDirection, rowDirection, swapComparison, swapRates, type Direction } from "../trace/direction";
import { Help } from "./Help";

/** A change's direction in its own colour and words. */
function DirectionTag({ d }: { d: Direction }) {
  if (!d) return null;
  return (
    <span className={`tag ${d}`} data-testid="direction">
      {d === "regression" ? "regression" : "improvement"}
    </span>
  );
}

/** The two runs' names as the comparison shows them. */
const SIDE = { a: "baseline", b: "candidate" } as const;

/** Props of CompareView. */
export interface CompareViewProps {
  /** The attempt-by-attempt comparison of two runs; null for two suite runs, compared by their rates alone. */
  comparison: Comparison | null;
  /** The A/B test of the two runs' completion rates over their trials, once it came. */
  rates?: RateComparison | null;
  onClose(): void;
  /** Opens one of the two runs. */
  onOpen(id: string): void;
  /**
   * Both traces of one pair side by side (see PairView), in place of the comparison until
   * back is called; without it the pairs do not open.
   */
  renderPair?(pair: Pair, back: () => void): ReactNode;
}

/** One attempt (or trial) of both runs, as a comparison's row opens it: baseline, then candidate. */
export interface Pair {
  slug: string;
  title: string;
  a: string;
  b: string;
}

/** A call as the attempts table words it: done, not done or could not confirm, and wrong. */
function callText(c: CompareCall | undefined): string {
  if (!c) return "—";
  const word = c.unconfirmed ? "could not confirm" : c.done ? "done" : "not done";
  return c.wrong ? `${word} (wrong)` : word;
}

/** One side's cell of a column; it is marked when the two sides differ there. */
function Cell({ text, differs, wrong, testId }: { text: string; differs: boolean; wrong?: boolean; testId?: string }) {
  return (
    <td className={[differs ? "differs" : "", wrong ? "wrong" : ""].join(" ").trim() || undefined} data-testid={testId}>
      {text}
      {differs && <span className="sr-only"> (differs)</span>}
    </td>
  );
}

/** The cells of one side, or one cell saying the run has no such attempt. */
function sideCells(side: CompareSide | null, ids: string[], differs: Set<string>, which: "a" | "b", slug: string, span: number) {
  if (!side) {
    return (
      <td colSpan={span} className="differs absent">
        not in run {which.toUpperCase()}
        <span className="sr-only"> (differs)</span>
      </td>
    );
  }
  return (
    <>
      <Cell text={side.terminal} differs={differs.has("terminal")} testId={`${which}-${slug}-terminal`} />
      {ids.map((id) => {
        const call = side.calls.find((c) => c.id === id);
        return <Cell key={id} text={callText(call)} differs={differs.has(id)} wrong={call?.wrong} testId={`${which}-${slug}-${id}`} />;
      })}
      <Cell text={`${side.steps}`} differs={differs.has("steps")} />
      <Cell text={`${side.duration_ms} ms`} differs={differs.has("duration")} />
    </>
  );
}

/** A percentage with its sign, "+100%". */
function signed(x: number): string {
  const v = Math.round(100 * x);
  return `${v > 0 ? "+" : ""}${v}%`;
}

/** One attempt's rates in both runs, the change with its interval, the test and its verdict. */
function RateLine({ r, overall }: { r: RateRow; overall?: boolean }) {
  return (
    <tr className={r.significant ? `row-differs ${rateDirection(r) ?? ""}`.trim() : undefined} data-testid={`rates-${r.attempt}`}>
      <th scope="row">
        {overall ? "All attempts" : r.attempt} <DirectionTag d={rateDirection(r)} />
      </th>
      <td>
        {r.a.k}/{r.a.n}
      </td>
      <td>
        {r.b.k}/{r.b.n}
      </td>
      <td>
        {signed(r.difference)}{" "}
        <span className="muted">
          [{signed(r.interval.lo)}, {signed(r.interval.hi)}]
        </span>
      </td>
      <td>
        {r.test === "mcnemar" ? "McNemar (paired)" : "Fisher"}, p = {r.p.toPrecision(3)}
      </td>
      <td className={r.significant ? "differs" : undefined}>{r.verdict}</td>
    </tr>
  );
}

/**
 * The A/B test of two runs: each attempt's completion rate over its trials in A and B,
 * largest change first (as Analysis.CompareRates sorts them), the difference with its 95%
 * interval, the exact test's p and its verdict in words, and every attempt together.
 */
function RatesTable({ rates, unit = "Attempt" }: { rates: RateComparison; unit?: string }) {
  return (
    <table className="compare-table rates-table">
      <caption>Completion rates over the trials: is B different from A, or is it noise?</caption>
      <thead>
        <tr>
          <th scope="col">{unit}</th>
          <th scope="col">A (baseline) completed</th>
          <th scope="col">B (candidate) completed</th>
          <th scope="col">B − A (95% interval)</th>
          <th scope="col">Exact test</th>
          <th scope="col">Verdict</th>
        </tr>
      </thead>
      <tbody>
        {rates.rows.map((r) => (
          <RateLine key={r.attempt} r={r} />
        ))}
        <RateLine r={rates.overall} overall />
      </tbody>
    </table>
  );
}

/**
 * Two runs attempt by attempt, as Analysis.Compare returned them: for each attempt, run A's
 * line over run B's, each with its terminal state, verdicts with their "wrong" marks, steps and
 * duration, in one set of columns so both fit a narrow window; the cells that differ are
 * highlighted on both lines and say so in words.
 */
export function CompareView({ comparison: given, rates: givenRates, onClose, onOpen, renderPair }: CompareViewProps) {
  const [swapped, setSwapped] = useState(false);
  /** The pair whose traces are open, if any; the comparison (and its swap) stays as it was under them. */
  const [pair, setPair] = useState<Pair | null>(null);
  const c = given && swapped ? swapComparison(given) : given;
  const rates = givenRates && swapped ? swapRates(givenRates) : givenRates;
  if (!c) return rates ? <SuiteCompare rates={rates} onClose={onClose} /> : null;
  if (pair && renderPair) return <>{renderPair(pair, () => setPair(null))}</>;
  const settings = c.settings ?? [];
  const ids = c.checks.map((k) => k.id);
  const span = ids.length + 3;
  const cols = ["terminal", ...c.checks.map((k) => k.label), "steps", "duration"];
  return (
    <section className="panel compare" aria-labelledby="compare-heading">
      <div className="panel-head">
        <h2 id="compare-heading">
          Compare runs <Help term="compare" topic="comparing runs" />
        </h2>
        <span className="muted" role="status">
          {c.differing} of {c.rows.length} attempt{c.rows.length === 1 ? "" : "s"} differ
        </span>
        <button type="button" onClick={() => setSwapped((x) => !x)} title="the baseline becomes the candidate and the other way round">
          Swap baseline and candidate
        </button>
        <button type="button" onClick={onClose}>
          Close comparison
        </button>
      </div>
      <div className="scroll">
        {rates && <RatesTable rates={rates} />}
        <ul className="compare-runs">
          {(["a", "b"] as const).map((w) => (
            <li key={w}>
              <strong>
                {w.toUpperCase()} ({SIDE[w]})
              </strong>
              :{" "}
              <button type="button" className="link" onClick={() => onOpen(c[w].id)} title="Open this run">
                <code>{c[w].id}</code>
              </button>{" "}
              <span className="muted">
                {c[w].task} · {c[w].source === "live" ? "run here" : c[w].source}
              </span>
            </li>
          ))}
        </ul>
        {settings.length > 0 ? (
          <table className="compare-table settings-table" aria-label="Settings that differ">
            <caption>How the two runs were run differently</caption>
            <thead>
              <tr>
                <th scope="col">Attempt</th>
                <th scope="col">Setting</th>
                <th scope="col">A (baseline)</th>
                <th scope="col">B (candidate)</th>
              </tr>
            </thead>
            <tbody>
              {settings.map((st) => (
                <tr key={`${st.slug}/${st.name}`} data-testid="setting">
                  <th scope="row">{c.rows.find((r) => r.slug === st.slug)?.title ?? st.slug}</th>
                  <td>
                    <code>{st.name}</code>
                  </td>
                  <td>{st.a || <span className="muted">not set</span>}</td>
                  <td>{st.b || <span className="muted">not set</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted" data-testid="settings-same">
            Both runs ran their attempts with the same settings.
          </p>
        )}
        <table className="compare-table runs-table">
          <caption className="sr-only">
            Run {c.a.id} (A) against run {c.b.id} (B), attempt by attempt
          </caption>
          <thead>
            <tr>
              <th scope="col">Attempt</th>
              <th scope="col">Run</th>
              {cols.map((label) => (
                <th key={label} scope="col">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          {changedFirst(c.rows).map((r) => {
            const differs = new Set(r.differs);
            return (
              <tbody key={r.slug} className={differs.size ? "row-differs" : undefined} data-testid={`compare-${r.slug}`}>
                <tr>
                  <th scope="row" rowSpan={2}>
                    {r.title}
                    {differs.size > 0 && <span className="tag differs-tag">differs</span>}
                    <DirectionTag d={rowDirection(r)} />
                    {renderPair && r.a && r.b && (
                      <button
                        type="button"
                        className="link open-pair"
                        aria-label={`Open both traces of ${r.title}`}
                        title="the baseline's trace and the candidate's side by side"
                        onClick={() => setPair({ slug: r.slug, title: r.title, a: c.a.id, b: c.b.id })}
                      >
                        both traces
                      </button>
                    )}
                  </th>
                  <th scope="row" className="run-side" title="the baseline">
                    A
                  </th>
                  {sideCells(r.a, ids, differs, "a", r.slug, span)}
                </tr>
                <tr>
                  <th scope="row" className="run-side" title="the candidate">
                    B
                  </th>
                  {sideCells(r.b, ids, differs, "b", r.slug, span)}
                </tr>
              </tbody>
            );
          })}
        </table>
      </div>
    </section>
  );
}

/**
 * Two suite runs compared as an A/B test: each task's attempts' rates in A and B, largest
 * change first, with the change's interval, the exact test and its verdict, and every trial
 * together; the attempts only one suite ran are named below.
 */
function SuiteCompare({ rates: r, onClose }: { rates: RateComparison; onClose(): void }) {
  const changed = r.rows.filter((x) => x.significant).length;
  return (
    <section className="panel compare" aria-labelledby="compare-heading">
      <div className="panel-head">
        <h2 id="compare-heading">
          Compare suite runs <Help term="compare" topic="comparing runs" />
        </h2>
        <span className="muted" role="status">
          {changed} of {r.rows.length} attempt{r.rows.length === 1 ? "" : "s"} differ significantly · overall: {r.overall.verdict}
        </span>
        <button type="button" onClick={onClose}>
          Close comparison
        </button>
      </div>
      {/* Focusable, so the keyboard scrolls a table too wide for the pane: nothing in it takes the focus. */}
      <div className="scroll" tabIndex={0} role="region" aria-label="Rates of the two suite runs">
        <p className="muted">
          A: suite {r.a.task} <code>{r.a.id}</code> · B: suite {r.b.task} <code>{r.b.id}</code>
        </p>
        <RatesTable rates={r} unit="Task / attempt" />
        {r.unmatched && r.unmatched.length > 0 && <p className="muted">In one suite run only, not compared: {r.unmatched.join(", ")}</p>}
      </div>
    </section>
  );
}
