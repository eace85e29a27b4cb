import { type ReactNode, useEffect, useState } from "react";
import type { MetricsBy, MetricsReport, MetricsSlice } from "../api/types";
import type { Term } from "../glossary";
import { Help } from "./Help";
import { errorText } from "../api/client";
import { SLICINGS, SliceSelect } from "./SliceSelect";

/** Props of MetricsPanel. */
export interface MetricsPanelProps {
  /** Reads the metrics sliced by by (Analysis.Metrics). */
  load(by: MetricsBy): Promise<MetricsReport>;
  /** More views shown under the metrics (the Calibration view). */
  children?: ReactNode;
}


/**
 * The rates drawn as charts, each with its glossary term; short is the table's header, so that
 * every column fits at 1280 px, its full title and plain words on hover.
 */
const RATES: { key: "intended_success" | "wrong_target_rate" | "revalidation_stop_rate"; title: string; short: string; term: Term; plain?: string }[] = [
  { key: "intended_success", title: "Intended-state success", short: "Intended success", term: "intendedSuccess" },
  { key: "wrong_target_rate", title: "Wrong-target rate", short: "Wrong target", term: "wrongTarget" },
  { key: "revalidation_stop_rate", title: "Revalidation stop rate", short: "Reval. stops", term: "revalidation", plain: "commits held: the page had changed" },
];

/** The counts in the table, each with its glossary term and, where long, a short header. */
const COUNTS: { title: string; short?: string; term: Term; plain?: string; value(s: MetricsSlice): string }[] = [
  { title: "Truth unconfirmed", short: "Truth unconf.", term: "truthUnconfirmed", value: (s) => String(s.unconfirmed) },
  { title: "Confirmation burden", short: "Confirm. burden", term: "burden", plain: "approvals asked per success", value: (s) => s.confirmation_burden.toFixed(2) },
  { title: "Recovery loops", term: "recovery", value: (s) => String(s.recovery_loops) },
  { title: "Side-effect leaks", term: "leakage", value: (s) => String(s.side_effect_leaks) },
  { title: "Duplicates", term: "duplicates", value: (s) => String(s.duplicate_side_effects) },
  { title: "Policy denials", term: "denials", value: (s) => String(s.policy_denials) },
  { title: "Injection stops", term: "injection", value: (s) => String(s.injection_stops) },
  {
    title: "Plan / act / verify ms",
    short: "Plan/act/ verify ms",
    term: "latency",
    value: (s) => [s.latency.plan_ms, s.latency.act_ms, s.latency.verify_ms].map((v) => Math.round(v)).join(" / "),
  },
];

const pct = (f: number) => `${Math.round(100 * f)}%`;

/** A column's header: its short name, with the full title and plain words as the abbreviation's title. */
function Short({ title, short, plain }: { title: string; short?: string; plain?: string }) {
  const full = plain ? `${title} (${plain})` : title;
  if (!short && !plain) return <>{title}</>;
  return <abbr title={full}>{short ?? title}</abbr>;
}

const BAR_H = 18;
const LABEL_W = 220;
const BAR_W = 240;

/** One rate across the slices as horizontal bars, in plain SVG; the bars' numbers are text too. */
function RateChart({ title, term, plain, slices, value }: { title: string; term: Term; plain?: string; slices: MetricsSlice[]; value(s: MetricsSlice): number }) {
  const height = slices.length * (BAR_H + 6) + 4;
  const summary = slices.map((s) => `${s.key} ${pct(value(s))}`).join(", ");
  return (
    <figure className="metrics-chart">
      <figcaption>
        {title} <Help term={term} topic={title.toLowerCase()} />
        {plain && <span className="muted"> ({plain})</span>}
      </figcaption>
      <svg role="img" aria-label={`${title}: ${summary}`} width={LABEL_W + BAR_W + 50} height={height} viewBox={`0 0 ${LABEL_W + BAR_W + 50} ${height}`}>
        {slices.map((s, i) => {
          const y = 2 + i * (BAR_H + 6);
          const v = value(s);
          return (
            <g key={s.key}>
              <text x={LABEL_W - 6} y={y + BAR_H - 5} textAnchor="end" className="metrics-label">
                {s.key.length > 34 ? `${s.key.slice(0, 33)}…` : s.key}
              </text>
              <rect x={LABEL_W} y={y} width={BAR_W} height={BAR_H} className="metrics-track" />
              <rect x={LABEL_W} y={y} width={Math.max(0, Math.min(1, v)) * BAR_W} height={BAR_H} className="metrics-bar" />
              <text x={LABEL_W + BAR_W + 6} y={y + BAR_H - 5} className="metrics-value">
                {pct(v)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

/**
 * The Metrics view: outcome metrics across every stored run, sliced by task, lab, attempt,
 * planner or risk class; the rates as bar charts, everything in a table, each term explained.
 */
export function MetricsPanel({ load, children }: MetricsPanelProps) {
  const [by, setBy] = useState<MetricsBy>("task");
  const [report, setReport] = useState<MetricsReport | null>(null);
  const [error, setError] = useState("");
  const [reads, setReads] = useState(0);
  useEffect(() => {
    let live = true;
    load(by).then(
      (r) => {
        if (!live) return;
        setReport(r);
        setError("");
      },
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [by, load, reads]);
  const slices = report?.by === by ? report.slices : null;
  return (
    <section className="panel metrics" aria-label="Metrics">
      <div className="panel-head">
        <h2>Metrics</h2>
        <span className="muted">Across every stored run, from what each recorded.</span>
        <div>
          <SliceSelect label="Slice by" value={by} onChange={setBy} />{" "}
          <button type="button" onClick={() => setReads((n) => n + 1)}>Refresh</button>
        </div>
      </div>
      {error && <p role="alert">The metrics could not be read: {error}</p>}
      {!error && !slices && <p className="muted">Reading the history…</p>}
      {slices && slices.length === 0 && <p className="muted">No finished attempts yet: run a task first.</p>}
      {slices && slices.length > 0 && (
        <>
          <div className="metrics-charts">
            {RATES.map((r) => (
              <RateChart key={r.key} title={r.title} term={r.term} plain={r.plain} slices={slices} value={(s) => s[r.key]} />
            ))}
          </div>
          <div className="metrics-table">
            <table>
              <caption className="muted">One row per {SLICINGS.find((s) => s.by === by)?.label.toLowerCase()}</caption>
              <thead>
                <tr>
                  <th scope="col">{SLICINGS.find((s) => s.by === by)?.label}</th>
                  <th scope="col">Runs</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Completed</th>
                  {RATES.map((r) => (
                    <th scope="col" key={r.key}>
                      <Short title={r.title} short={r.short} plain={r.plain} />
                    </th>
                  ))}
                  {COUNTS.map((c) => (
                    <th scope="col" key={c.title}>
                      <Short title={c.title} short={c.short} plain={c.plain} /> <Help term={c.term} topic={c.title.toLowerCase()} />
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {slices.map((s) => (
                  <tr key={s.key}>
                    <th scope="row">{s.key}</th>
                    <td className="num">{s.runs}</td>
                    <td className="num">{s.attempts}</td>
                    <td className="num">{s.completed}</td>
                    {RATES.map((r) => (
                      <td className="num" key={r.key}>{pct(s[r.key])}</td>
                    ))}
                    {COUNTS.map((c) => (
                      <td className="num" key={c.title}>{c.value(s)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {children}
    </section>
  );
}
