import { useId, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type MouseEvent } from "react";
import type { StepSummary } from "../api/types";
import { useElementSize } from "../layout/useElementSize";
import { useWindowHeight } from "../layout/useWindowHeight";
import { cellsIn, laneMove, layoutStrip, scrollToShow } from "../trace/strip";
import { gateWords, lastAtOrBefore, type Mark, type Timeline as Line } from "../trace/timeline";
import { Help } from "./Help";
import { StripPreview, StripThumb } from "./StripShot";

/** Props of Timeline. */
export interface TimelineProps {
  runId: string;
  line: Line;
  /** The steps the line was built from, for their screenshots and durations. */
  steps: readonly StepSummary[];
  /** The chosen mark's position in line.marks. */
  selected: number;
  /** Where the video is, in ms, while it is shown; the axis draws it. */
  playhead?: number | null;
  /** The attempt's evidence level, to say why a step kept no screenshot. */
  evidence?: string;
  /** The page's width over its height, for the thumbnails' shape; absent is 10:7. */
  aspect?: number;
  onChoose(mark: number): void;
  /** Chooses the point at ms, from a click on the time axis. */
  onSeek(ms: number): void;
}

/** What each kind of mark is, in words. */
const KIND_WORDS: Record<Mark["kind"], string> = { step: "agent step", event: "app event", check: "oracle check" };

/** How tall a thumbnail is on a window of the given height: the pictures above keep their room on a short one. */
function thumbHeight(windowHeight: number): number {
  return windowHeight <= 800 ? 28 : windowHeight < 1000 ? 40 : 50;
}

/** The room a cell takes around its thumbnail, in px: its border and padding. */
const CELL_CHROME = 6; // a 3 px left border, 1 px right, 1 px padding either side

/** The height of a line of a step's name beside its thumbnail, in px (.filmstrip .cell's line-height). */
const LABEL_LINE = 13;

/** How many times a thumbnail's height the hover preview's picture is. */
const PREVIEW_SCALE = 6;

/** How wide an event's mark is, in px. */
const TICK = 7;

/** The room assumed before the strip is laid out (and in tests, where nothing is). */
const FALLBACK_ROOM = 800;

/**
 * The attempt's filmstrip on a time axis under the step's page: each agent step a cell from
 * its start to the next step's with its screenshot's thumbnail (at least a thumbnail wide,
 * the rest of the width shared out by time, so the whole attempt fits when it can and scrolls
 * with the chosen step kept in view when it cannot); under it, on a lane of their own, the
 * app's events and the final check as small marks at their moments; under that the gate's
 * state along the attempt, the chosen moment and the video's place. Hovering a mark shows
 * its step larger with its name; choosing one chooses the step, the replay frame and the
 * video's time together. Only what is near the view is drawn, whatever the run's size.
 */
export function Timeline({ runId, line, steps, selected, playhead, evidence, aspect = 10 / 7, onChoose, onSeek }: TimelineProps) {
  const base = useId();
  const { marks } = line;
  const n = marks.length;
  const scroller = useRef<HTMLDivElement>(null);
  // The strip is drawn from the first mark on: measured from then.
  const room = useElementSize(scroller, n > 0).width;
  const thumbH = thumbHeight(useWindowHeight());
  const thumbW = Math.round(thumbH * aspect);
  const width = room || FALLBACK_ROOM;
  const strip = useMemo(() => layoutStrip(line, width, thumbW + CELL_CHROME), [line, width, thumbW]);
  const sel = Math.max(0, Math.min(selected, n - 1));
  const chosen = marks[sel];
  const isStep = (k: number) => stepOfMark(line)[k] !== undefined;
  /** Where the chosen mark is: its step's cell, or an event's or the final check's moment. */
  const selBox = isStep(sel) ? strip.cells[chosen.step] : { x: strip.xAt(chosen?.at_ms ?? 0), w: TICK };
  // The scroll as last read, and the choice and layout it was brought to: a new choice or a
  // new layout brings the chosen mark into view; the user's own scrolling is left alone.
  const [scroll, setScroll] = useState({ x: 0, key: "" });
  const key = `${sel}:${strip.width}`;
  const view = scroll.key === key ? scroll.x : scrollToShow(selBox.x, selBox.w, scroll.x, width, strip.width);
  const [hover, setHover] = useState<number | null>(null);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && Math.abs(el.scrollLeft - view) >= 1) el.scrollLeft = view;
    if (scroll.key !== key) setScroll({ x: view, key });
  }, [view, key, scroll.key]);

  if (n === 0) return null;
  const optionId = (k: number) => `${base}-mark-${k}`;
  // Draw what lies within a view's width either side of the view.
  const from = view - width;
  const to = view + 2 * width;
  const [c0, c1] = cellsIn(strip, from, to);
  const m0 = Math.max(0, lastAtOrBefore(strip.msAt(from), (k) => marks[k].at_ms, n));
  const m1 = lastAtOrBefore(strip.msAt(to), (k) => marks[k].at_ms, n);
  const near: number[] = [];
  for (let k = m0; k <= m1; k++) if (!isStep(k)) near.push(k);
  if (!isStep(sel) && !near.includes(sel)) near.push(sel);

  const onKey = (e: KeyboardEvent) => {
    const to = laneMove(line, sel, e.key);
    if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    e.stopPropagation();
    if (to !== sel) onChoose(to);
  };
  const onAxis = (e: MouseEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    onSeek(strip.msAt(e.clientX - box.left));
  };
  const hovered = hover === null ? null : marks[hover];
  const hoveredStep = hover !== null && isStep(hover) ? steps[marks[hover].step] : undefined;
  const previewW = Math.round(thumbH * PREVIEW_SCALE * aspect) + 12;
  const hoverX = hovered ? (hoveredStep ? strip.cells[hovered.step].x + thumbW / 2 : strip.xAt(hovered.at_ms)) - view : 0;
  const gateAt = (k: number) => (
    <span
      key={k}
      className={`gate-${marks[k].gate}`}
      style={{ left: strip.xAt(marks[k].at_ms), width: Math.max(0, (k + 1 < n ? strip.xAt(marks[k + 1].at_ms) : strip.width) - strip.xAt(marks[k].at_ms)) }}
    />
  );
  const gates: number[] = [];
  for (let k = m0; k <= Math.min(n - 1, m1 + 1); k++) gates.push(k);

  return (
    <section className="timeline" aria-label="Timeline" style={{ "--thumb-h": `${thumbH}px`, "--thumb-w": `${thumbW}px`, "--label-lines": Math.floor(thumbH / LABEL_LINE) } as CSSProperties}>
      <div className="strip-scroll" ref={scroller} onScroll={(e) => setScroll({ x: e.currentTarget.scrollLeft, key })} onMouseLeave={() => setHover(null)}>
        <div
          role="listbox"
          aria-label="Timeline marks"
          aria-orientation="horizontal"
          tabIndex={0}
          aria-activedescendant={optionId(sel)}
          className="filmstrip"
          style={{ width: Math.floor(strip.width) }}
          onKeyDown={onKey}
        >
          <div role="group" aria-label="Agent steps" className="strip-lane steps" data-testid="step-lane">
            {strip.cells.slice(c0, c1 + 1).map((c) => {
              const m = marks[c.mark];
              const s = steps[c.step];
              const current = chosen.step === c.step;
              return (
                <div
                  key={c.mark}
                  id={optionId(c.mark)}
                  role="option"
                  aria-selected={c.mark === sel}
                  aria-posinset={c.mark + 1}
                  aria-setsize={n}
                  className={`mark cell ${m.kind}${m.error || s?.failed_requests ? " error" : ""}${current ? " current" : ""}`}
                  style={{ left: c.x, width: c.w }}
                  data-testid={`mark-${c.mark}`}
                  onClick={() => onChoose(c.mark)}
                  onMouseEnter={() => setHover(c.mark)}
                >
                  <StripThumb runId={runId} shot={m.shot} evidence={evidence} />
                  <span className="mark-label">{m.label}</span>
                  <span className="sr-only">{`, ${KIND_WORDS[m.kind]} at ${m.at_ms} ms, ${gateWords(m.gate)}`}</span>
                </div>
              );
            })}
          </div>
          <div role="group" aria-label="App events and the final check" className="strip-lane events" data-testid="event-lane">
            {near.map((k) => {
              const m = marks[k];
              return (
                <div
                  key={k}
                  id={optionId(k)}
                  role="option"
                  aria-selected={k === sel}
                  aria-posinset={k + 1}
                  aria-setsize={n}
                  className={`mark tick ${m.kind}`}
                  style={{ left: strip.xAt(m.at_ms) }}
                  data-testid={`mark-${k}`}
                  onClick={() => onChoose(k)}
                  onMouseEnter={() => setHover(k)}
                >
                  <span className="mark-label sr-only">{m.label}</span>
                  <span className="sr-only">{`, ${KIND_WORDS[m.kind]} at ${m.at_ms} ms, ${gateWords(m.gate)}`}</span>
                </div>
              );
            })}
          </div>
        </div>
        <div
          role="slider"
          tabIndex={0}
          aria-label="Time"
          aria-valuemin={0}
          aria-valuemax={line.end_ms}
          aria-valuenow={chosen.at_ms}
          aria-valuetext={`${chosen.at_ms} ms: ${chosen.label}, ${gateWords(chosen.gate)}`}
          className="ruler"
          data-testid="ruler"
          style={{ width: Math.floor(strip.width) }}
          onClick={onAxis}
        >
          {gates.map(gateAt)}
          <span className="cursor" aria-hidden="true" style={{ left: strip.xAt(chosen.at_ms) }} />
          {playhead !== null && playhead !== undefined && <span className="playhead" aria-hidden="true" data-testid="playhead" style={{ left: strip.xAt(playhead) }} />}
        </div>
      </div>
      {hovered && hover !== null && (
        <StripPreview
          runId={runId}
          shot={hovered.shot}
          evidence={evidence}
          mark={hovered}
          duration_ms={hoveredStep?.duration_ms}
          left={Math.max(0, Math.min(hoverX - previewW / 2, width - previewW))}
          width={previewW}
        />
      )}
      <p className="timeline-legend muted">
        <span className="lg step">steps</span>
        <span className="lg event">events</span>
        <span className="lg check">checks</span>
        <span className="lg gate">
          gate <Help term="timeline" topic="the timeline" />
        </span>
        <span className="num">
          {chosen.kind === "event" ? "event" : `${chosen.step + 1}/${steps.length || 1}`} · {chosen.at_ms} ms
        </span>
      </p>
    </section>
  );
}

/** Which marks of a line are steps' (the position of each step's mark, to its step), made once per line. */
const stepMarks = new WeakMap<Line, Record<number, number>>();

/** The marks of line that are steps' own, to the step each is. */
function stepOfMark(line: Line): Record<number, number> {
  let out = stepMarks.get(line);
  if (!out) {
    out = {};
    line.stepMark.forEach((m, k) => (out![m] = k));
    stepMarks.set(line, out);
  }
  return out;
}
