import { useEffect, useId, useRef, useState } from "react";
import type { AttemptRef, Calibrated, CalibrationRate, CalibrationReport, Confusion, MetricsBy } from "../api/types";
import { errorText } from "../api/client";
import { SLICINGS, SliceSelect } from "./SliceSelect";

/** Props of CalibrationPanel. */
export interface CalibrationPanelProps {
  /** Reads the calibration sliced by by, over the runs given, or all (Runs.Calibration). */
  load(by: MetricsBy, runs: string[]): Promise<CalibrationReport>;
  /** Opens one attempt's trace. */
  onOpen(ref: AttemptRef): void;
}


/** The confusion table's cells, in the order of its columns. */
const CELLS: { key: keyof Confusion; title: string }[] = [
  { key: "true_done", title: "Done, right" },
  { key: "false_done", title: "Done, wrong" },
  { key: "false_not_done", title: "Not done, wrong" },
  { key: "true_not_done", title: "Not done, right" },
  { key: "unconfirmed", title: "Could not confirm" },
];

/** A rate as the command line prints it: "2/8 [7%, 59%]", or "–" with nothing to count. */
export function rateText(r: CalibrationRate): string {
  if (r.n === 0) return "–";
  const pct = (f: number) => `${Math.round(100 * f)}%`;
  return `${r.k}/${r.n} [${pct(r.interval.lo)}, ${pct(r.interval.hi)}]`;
}

/** The most slice keys an overall caption lists before it counts the rest. */
const LISTED_KEYS = 6;

/**
 * A slice's caption, saying what it pools: "Task: booking" for one slice, and for the overall
 * slice every slice it pools, "Overall: every attempt of booking, checkout (2 tasks)".
 */
export function sliceCaption(by: MetricsBy, key: string, keys?: string[]): string {
  const label = SLICINGS.find((s) => s.by === by)?.label ?? by;
  if (!keys) return `${label}: ${key}`;
  const listed = keys.length > LISTED_KEYS ? `${keys.slice(0, LISTED_KEYS - 1).join(", ")} and ${keys.length - LISTED_KEYS + 1} more` : keys.join(", ");
  return `Overall: every attempt of ${listed} (${keys.length} by ${label.toLowerCase()})`;
}

/** The cell a user picked: its slice, signal, reference and column. */
interface Picked {
  slice: string;
  signal: string;
  against: string;
  cell: keyof Confusion;
}

/**
 * The Calibration view: how often each signal (the success notice, Parallax's rule, each
 * model judge, the agent's claim, and the gate) agrees with ground truth and with the gate,
 * over the history or the runs named; each cell is a button listing the attempts behind it,
 * each of which opens its trace.
 */
export function CalibrationPanel({ load, onOpen }: CalibrationPanelProps) {
  const [by, setBy] = useState<MetricsBy>("task");
  const [runs, setRuns] = useState("");
  const [ids, setIds] = useState<string[]>([]);
  const [report, setReport] = useState<CalibrationReport | null>(null);
  const [error, setError] = useState("");
  const [picked, setPicked] = useState<Picked | null>(null);
  const [reads, setReads] = useState(0);
  const runsId = useId();
  useEffect(() => {
    let live = true;
    load(by, ids).then(
      (r) => {
        if (!live) return;
        setReport(r);
        setError("");
        setPicked(null);
      },
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [by, load, ids, reads]);
  /** Reads again, over the runs named in the field (every run when it is empty). */
  const refresh = () => {
    setIds(runs.split(/[\s,]+/).filter(Boolean));
    setReads((n) => n + 1);
  };
  const slices =
    report?.by === by
      ? [
          ...report.slices.map((sl) => ({ ...sl, caption: sliceCaption(by, sl.key) })),
          { ...report.overall, caption: sliceCaption(by, report.overall.key, report.slices.map((sl) => sl.key)) },
        ]
      : null;
  return (
    <section className="calibration" aria-label="Calibration">
      <div className="panel-head">
        <h3>Calibration</h3>
        <span className="muted">How often each signal says done when the state says otherwise.</span>
        <div>
          <SliceSelect label="Calibrate by" value={by} onChange={setBy} />{" "}
          <label htmlFor={runsId}>Over runs </label>
          <input
            id={runsId}
            value={runs}
            placeholder="all"
            onChange={(e) => setRuns(e.target.value)}
            onKeyDown={(e) => e.key === "Enter" && refresh()}
          />{" "}
          <button type="button" onClick={refresh}>Refresh the calibration</button>
        </div>
      </div>
      {error && <p role="alert">The calibration could not be read: {error}</p>}
      {!error && !slices && <p className="muted">Reading the history…</p>}
      {slices && report && report.slices.length === 0 && <p className="muted">No finished attempts yet: run a task first.</p>}
      {slices &&
        report &&
        report.slices.length > 0 &&
        slices.map((sl) => (
          <div className="metrics-table" key={sl.caption}>
            <table>
              <caption>{sl.caption}</caption>
              <thead>
                <tr>
                  <th scope="col">Signal</th>
                  <th scope="col">Against</th>
                  {CELLS.map((c) => (
                    <th scope="col" key={c.key}>{c.title}</th>
                  ))}
                  <th scope="col">False done</th>
                  <th scope="col">Precision</th>
                  <th scope="col">Recall</th>
                </tr>
              </thead>
              <tbody>
                {sl.signals.map((s) => (
                  <SignalRow key={`${s.signal}/${s.against}`} slice={sl.caption} s={s} picked={picked} onPick={setPicked} />
                ))}
              </tbody>
            </table>
            {sl.signals.some((s) => (s.gate_stands_in ?? 0) > 0) && (
              <p className="muted">Where a task declares no ground truth, the completion gate stands in for it: “truth” is then the gate.</p>
            )}
            {picked?.slice === sl.caption && <PickedAttempts slice={sl.signals} picked={picked} onOpen={onOpen} />}
          </div>
        ))}
    </section>
  );
}

/** One signal against one reference: the cells as buttons, then its rates. */
function SignalRow({ slice, s, picked, onPick }: { slice: string; s: Calibrated; picked: Picked | null; onPick(p: Picked | null): void }) {
  return (
    <tr>
      <th scope="row">
        {s.label}
        {s.pooled && (
          <span className="pooled muted">
            {" "}pools {s.pooled.length}: {s.pooled.join("; ")}
          </span>
        )}
      </th>
      <td>{s.against === "truth" ? "ground truth" : "gate"}</td>
      {CELLS.map((c) => {
        const refs = s.confusion[c.key] ?? [];
        const on = picked?.slice === slice && picked.signal === s.signal && picked.against === s.against && picked.cell === c.key;
        return (
          <td className="num" key={c.key}>
            <button
              type="button"
              aria-pressed={on}
              disabled={refs.length === 0}
              aria-label={`${s.label} against the ${s.against}, ${c.title.toLowerCase()}: ${refs.length} attempts`}
              onClick={() => onPick(on ? null : { slice, signal: s.signal, against: s.against, cell: c.key })}
            >
              {refs.length}
            </button>
          </td>
        );
      })}
      <td className="num">{rateText(s.false_done)}</td>
      <td className="num">{rateText(s.precision)}</td>
      <td className="num">{rateText(s.recall)}</td>
    </tr>
  );
}

/**
 * The attempts behind the picked cell, each opening its trace; brought into view when a cell
 * is picked, since they open under the table, often below the fold.
 */
function PickedAttempts({ slice, picked, onOpen }: { slice: Calibrated[]; picked: Picked; onOpen(ref: AttemptRef): void }) {
  const s = slice.find((x) => x.signal === picked.signal && x.against === picked.against);
  const here = useRef<HTMLDivElement>(null);
  useEffect(() => {
    here.current?.scrollIntoView?.({ block: "nearest" });
  }, [picked]);
  const refs = s?.confusion[picked.cell] ?? [];
  const title = CELLS.find((c) => c.key === picked.cell)?.title.toLowerCase();
  return (
    <div role="region" ref={here} className="picked-attempts" aria-label={`Attempts: ${s?.label} against the ${picked.against}, ${title}`}>
      <p>
        {s?.label} against the {picked.against}, {title}:
      </p>
      <ul>
        {refs.map((r) => (
          <li key={`${r.run}/${r.attempt}`}>
            <button type="button" onClick={() => onOpen(r)}>
              {r.attempt} <span className="muted">({r.run})</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
