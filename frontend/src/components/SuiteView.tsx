import { useId } from "react";
import type { Estimates, SuiteCell, SuiteReport } from "../api/types";
import { Help } from "./Help";

/** Props of SuiteView. */
export interface SuiteViewProps {
  suite: SuiteReport;
  /** Whether a run of the suite is still going: the grid fills in as its trials end. */
  going: boolean;
  onClose(): void;
  /** Opens one trial's trace: attempt slug of run id. */
  onOpen(run: string, slug: string): void;
  /** The other suite runs in the history, newest first, that this one can be compared with. */
  others: string[];
  /** Compares suite run a (the baseline) with this one as B. */
  onCompare(a: string): void;
}

/** A rate as a whole percentage, "67%". */
const pct = (x: number) => `${Math.round(100 * x)}%`;

/** Above this many trials a cell shows its mark alone, the terminal state in its label and tooltip. */
const COMPACT_TRIALS = 3;

/** The width of a row's interval chart, in px. */
const CHART_W = 160;

/**
 * One rate with its 95% interval on a 0–100% scale: the interval a bar, the rate a dot. The
 * numbers are in the cell beside it; the chart itself says them for a screen reader too.
 */
export function RateChart({ rate, interval }: { rate: number; interval: { lo: number; hi: number } }) {
  const x = (v: number) => 4 + v * (CHART_W - 8);
  return (
    <svg className="rate-chart" width={CHART_W} height={16} viewBox={`0 0 ${CHART_W} 16`} role="img" aria-label={`${pct(rate)}, 95% interval ${pct(interval.lo)} to ${pct(interval.hi)}`}>
      <line className="axis" x1={x(0)} x2={x(1)} y1={8} y2={8} />
      <line className="axis" x1={x(0.5)} x2={x(0.5)} y1={4} y2={12} />
      <rect className="interval" x={x(interval.lo)} y={4} width={Math.max(x(interval.hi) - x(interval.lo), 1)} height={8} rx={2} />
      <circle className="rate" cx={x(rate)} cy={8} r={4} />
    </svg>
  );
}

/** How a trial's cell words its end: a mark the eye catches and the terminal state. */
function cellText(c: SuiteCell): string {
  if (!c.terminal) return "…";
  return c.terminal === "completed" ? "✓" : "✗";
}

/** The rate, its interval and what the estimates add, as one row's last cells. */
function RateCells({ e, completed, trials }: { e: Estimates; completed: number; trials: number }) {
  const rate = trials ? completed / trials : 0;
  return (
    <>
      <td className="num">
        {completed}/{trials} · {pct(rate)}
      </td>
      <td className="num muted">
        [{pct(e.success_interval.lo)}, {pct(e.success_interval.hi)}]
      </td>
      <td>
        <RateChart rate={rate} interval={e.success_interval} />
      </td>
    </>
  );
}

/**
 * A suite run as Runs.Suite reads it: on top, every trial together (the success rate with its
 * Wilson 95% interval, pass@k and pass^k, flaky attempts); below, a grid of each task's
 * attempts by trial, each cell one trial's end (coloured, ✓ when its gate proved the effect)
 * and a button to its trace, and each row's rate with its interval drawn beside it.
 */
export function SuiteView({ suite: s, going, onClose, onOpen, others, onCompare }: SuiteViewProps) {
  const compareId = useId();
  const o = s.estimates.overall;
  const slices = new Map(s.estimates.slices.map((sl) => [sl.key, sl]));
  const flaky = new Set(o.flaky ?? []);
  const columns = Array.from({ length: s.trials }, (_, k) => k + 1);
  const compact = s.trials > COMPACT_TRIALS;
  return (
    <section className="panel compare suite" aria-labelledby="suite-heading">
      <div className="panel-head">
        <h2 id="suite-heading">
          Suite {s.name} <Help term="suite" topic="suites and trials" />
        </h2>
        <span className="muted" role="status">
          {going ? "running · " : ""}
          {o.completed} of {o.attempts} trials completed · {pct(o.attempts ? o.completed / o.attempts : 0)} [{pct(o.success_interval.lo)}, {pct(o.success_interval.hi)}]
        </span>
        {others.length > 0 && (
          <span className="suite-compare">
            <label htmlFor={compareId}>Compare with</label>{" "}
            <select
              id={compareId}
              value=""
              disabled={going}
              onChange={(e) => e.target.value && onCompare(e.target.value)}
              title="Pick a suite run as A, the baseline: this one is B"
            >
              <option value="">a suite run (as A)…</option>
              {others.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          </span>
        )}
        <button type="button" onClick={onClose}>
          Close suite
        </button>
      </div>
      <div className="scroll">
        <dl className="suite-summary">
          <div>
            <dt>Success rate</dt>
            <dd data-testid="suite-rate">
              {pct(o.attempts ? o.completed / o.attempts : 0)} <RateChart rate={o.attempts ? o.completed / o.attempts : 0} interval={o.success_interval} />
            </dd>
          </div>
          <div>
            <dt>95% interval</dt>
            <dd data-testid="suite-interval">
              {pct(o.success_interval.lo)} – {pct(o.success_interval.hi)}
            </dd>
          </div>
          <div>
            <dt>pass@{s.estimates.k}</dt>
            <dd>{o.pass_at_k.toFixed(2)}</dd>
          </div>
          <div>
            <dt>pass^{s.estimates.k}</dt>
            <dd>{o.pass_hat_k.toFixed(2)}</dd>
          </div>
          <div>
            <dt>Flaky attempts</dt>
            <dd data-testid="suite-flaky">{flaky.size}</dd>
          </div>
          <div>
            <dt>Runs</dt>
            <dd>
              {s.runs.map((r) => (
                <span key={r.id} className="suite-run">
                  {r.task} <code>{r.id}</code>
                </span>
              ))}
            </dd>
          </div>
        </dl>
        {compact && (
          <p className="muted suite-legend">
            Trials 1 to {s.trials}: ✓ completed, its gate proved the effect; ✗ did not (red: failed, rejected or out of budget; amber: ambiguous or cancelled); dashed: a check disagreed with the ground truth. A cell's tooltip says how it ended.
          </p>
        )}
        <table className={`compare-table suite-grid${compact ? " compact" : ""}`}>
          <caption className="sr-only">Each attempt's trials, its success rate and the rate's 95% interval</caption>
          <thead>
            <tr>
              <th scope="col">Task</th>
              <th scope="col">Attempt</th>
              {columns.map((k) => (
                <th key={k} scope="col" className="trial-col">
                  {s.trials === 1 ? "Result" : compact ? k : `Trial ${k}`}
                </th>
              ))}
              <th scope="col">Completed</th>
              <th scope="col">95% interval</th>
              <th scope="col">
                <span className="sr-only">Rate and interval, drawn from </span>0 – 100%
              </th>
            </tr>
          </thead>
          <tbody>
            {s.rows.map((row) => {
              const done = row.cells.filter((c) => c.terminal === "completed").length;
              const e = slices.get(row.key);
              return (
                <tr key={row.key} data-testid={`suite-${row.key}`}>
                  <td>{row.task}</td>
                  <th scope="row">
                    {row.title}
                    {flaky.has(row.key) && <span className="tag differs-tag">flaky</span>}
                  </th>
                  {columns.map((k) => {
                    const c = row.cells[k - 1];
                    if (!c) return <td key={k} className="absent" />;
                    const label = `${row.title}, trial ${c.trial || 1}: ${c.terminal || "not ended"}${c.wrong?.length ? ", a check is wrong" : ""}: open its trace`;
                    return (
                      <td key={k} className="trial-cell">
                        <button
                          type="button"
                          className={`trial ${c.terminal || "pending"}${c.wrong?.length ? " wrong" : ""}`}
                          aria-label={label}
                          title={`${c.terminal || "not ended"} · ${c.slug} of run ${c.run}`}
                          onClick={() => onOpen(c.run, c.slug)}
                        >
                          {cellText(c)}
                          {!compact && <span className="trial-terminal"> {c.terminal || "running"}</span>}
                        </button>
                      </td>
                    );
                  })}
                  {e ? <RateCells e={e} completed={done} trials={row.cells.length} /> : <td colSpan={3} />}
                </tr>
              );
            })}
            <tr className="suite-overall" data-testid="suite-overall">
              <th scope="row" colSpan={2 + columns.length}>
                All attempts
              </th>
              <RateCells e={o} completed={o.completed} trials={o.attempts} />
            </tr>
          </tbody>
        </table>
      </div>
    </section>
  );
}
