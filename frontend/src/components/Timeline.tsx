import { useEffect, useId, useMemo, useRef, type KeyboardEvent, type MouseEvent } from "react";
import { mediaURL } from "../media";
import { bins, gateWords, type Mark, type Timeline as Line } from "../trace/timeline";
import { Help } from "./Help";

/** How many marks the filmstrip renders at once, whatever the run's size. */
export const FILMSTRIP_WINDOW = 24;

/** How many cells the ruler draws per lane, whatever the run's size. */
const RULER_CELLS = 160;

/** Props of Timeline. */
export interface TimelineProps {
  runId: string;
  line: Line;
  /** The chosen mark's position in line.marks. */
  selected: number;
  /** Where the video is, in ms, while it is shown; the ruler draws it. */
  playhead?: number | null;
  onChoose(mark: number): void;
  /** Chooses the point at ms, from a click on the ruler. */
  onSeek(ms: number): void;
}

/** The first mark the filmstrip renders: the chosen one a third of the way in. */
export function windowStart(selected: number, count: number): number {
  return Math.max(0, Math.min(selected - Math.floor(FILMSTRIP_WINDOW / 3), count - FILMSTRIP_WINDOW));
}

/** What each kind of mark is, in words. */
const KIND_WORDS: Record<Mark["kind"], string> = { step: "agent step", event: "app event", check: "oracle check" };

/**
 * The gate's state as a mark: ● done, ○ not done yet, · unknown. Not ✓ and ✗, which say
 * whether a step ran or failed: one symbol, one meaning.
 */
function gateMark(gate: boolean | null): string {
  return gate === null ? "gate ·" : gate ? "gate ●" : "gate ○";
}

/**
 * One timeline of the attempt under its screenshot: a filmstrip (a listbox of the agent's
 * steps with their screenshots, the app's events and the oracle's checks, in time order, each
 * with the gate's state there) over a time ruler (a slider drawing the same marks in lanes,
 * the gate's state along the attempt and the video's place). Choosing on either chooses the
 * step, the replay frame and the video's time together. Only a window of the filmstrip and
 * a fixed number of ruler cells are drawn, so its size does not grow with the run.
 */
export function Timeline({ runId, line, selected, playhead, onChoose, onSeek }: TimelineProps) {
  const base = useId();
  const { marks, end_ms } = line;
  const n = marks.length;
  // The ruler's lanes change with the timeline, never with the choice: drawn once per timeline.
  const lanes = useMemo(() => {
    const cells = bins(line, RULER_CELLS);
    return (
      <>
        {(["step", "event", "check"] as const).map((kind) => (
          <div key={kind} className={`lane ${kind}`} aria-hidden="true">
            {cells.map((c, b) => (
              <span key={b} className={c.kinds.includes(kind) ? (c.error && kind === "step" ? "on error" : "on") : undefined} />
            ))}
          </div>
        ))}
        <div className="lane gate" aria-hidden="true">
          {cells.map((c, b) => (
            <span key={b} className={`gate-${c.gate}`} />
          ))}
        </div>
      </>
    );
  }, [line]);
  const strip = useRef<HTMLDivElement>(null);
  // Keep the chosen mark in view, a third of the way in.
  useEffect(() => {
    const el = strip.current;
    const opt = el?.querySelector<HTMLElement>('[aria-selected="true"]');
    if (el && opt) el.scrollLeft = Math.max(0, opt.offsetLeft - el.offsetLeft - el.clientWidth / 3);
  }, [selected, line]);
  if (n === 0) return null;
  const sel = Math.max(0, Math.min(selected, n - 1));
  const chosen = marks[sel];
  const start = windowStart(sel, n);
  const shown = marks.slice(start, start + FILMSTRIP_WINDOW);
  const optionId = (k: number) => `${base}-mark-${k}`;
  const pct = (ms: number) => `${(Math.max(0, Math.min(ms, end_ms)) / end_ms) * 100}%`;

  const onKey = (e: KeyboardEvent) => {
    const to = { ArrowLeft: sel - 1, ArrowRight: sel + 1, Home: 0, End: n - 1 }[e.key];
    if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    e.stopPropagation();
    onChoose(Math.max(0, Math.min(n - 1, to)));
  };
  const onRuler = (e: MouseEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    if (box.width > 0) onSeek(((e.clientX - box.left) / box.width) * end_ms);
  };

  return (
    <section className="timeline" aria-label="Timeline">
      <div
        role="listbox"
        aria-label="Timeline marks"
        aria-orientation="horizontal"
        tabIndex={0}
        aria-activedescendant={optionId(sel)}
        className="filmstrip"
        ref={strip}
        onKeyDown={onKey}
      >
        {shown.map((m, j) => {
          const k = start + j;
          return (
            <div
              key={k}
              id={optionId(k)}
              role="option"
              aria-selected={k === sel}
              aria-posinset={k + 1}
              aria-setsize={n}
              className={`mark ${m.kind}${m.error ? " error" : ""}`}
              data-testid={`mark-${k}`}
              onClick={() => onChoose(k)}
            >
              {m.shot ? <img src={mediaURL(runId, m.shot)} alt="" loading="lazy" decoding="async" onError={(e) => (e.currentTarget.style.visibility = "hidden")} /> : <span className="thumb" />}
              <span className="mark-label">{m.label}</span>
              <span className="sr-only">{`, ${KIND_WORDS[m.kind]} at ${m.at_ms} ms, ${gateWords(m.gate)}`}</span>
              <span className={`mark-gate gate-${m.gate}`} aria-hidden="true">
                {gateMark(m.gate)} <span className="num">{m.at_ms} ms</span>
              </span>
            </div>
          );
        })}
      </div>
      <div className="ruler-row">
        <div
          role="slider"
          tabIndex={0}
          aria-label="Time"
          aria-valuemin={0}
          aria-valuemax={end_ms}
          aria-valuenow={chosen.at_ms}
          aria-valuetext={`${chosen.at_ms} ms: ${chosen.label}, ${gateWords(chosen.gate)}`}
          className="ruler"
          data-testid="ruler"
          onClick={onRuler}
        >
          {lanes}
          <span className="cursor" aria-hidden="true" style={{ left: pct(chosen.at_ms) }} />
          {playhead !== null && playhead !== undefined && <span className="playhead" aria-hidden="true" data-testid="playhead" style={{ left: pct(playhead) }} />}
        </div>
        <p className="timeline-legend muted">
          <span className="lg step">steps</span> <span className="lg event">events</span> <span className="lg check">checks</span>{" "}
          <span className="lg gate">gate</span> <Help term="timeline" topic="the timeline" />
          <span className="num">
            {sel + 1}/{n} · {chosen.at_ms} ms
          </span>
        </p>
      </div>
    </section>
  );
}
