import { useEffect, useMemo, useState } from "react";
import type { Action, AppEvent, AttemptHeader, AttemptRequests, Check, Frame, LedgerEntry, Replay, Signature, Step, StepSummary } from "../api/types";
import { Splitter } from "../layout/Splitter";
import { useStoredSize } from "../layout/useStoredSize";
import { modified, ownsKeys } from "../keys";
import type { Column } from "../verdicts";
import { BrowserLog } from "./BrowserLog";
import { DetailTabs } from "./DetailTabs";
import { ShotViewer, type View } from "./ShotViewer";
import { StepFacts } from "./StepFacts";
import { StepList } from "./StepList";
import { SignatureBadge } from "./SignatureBadge";
import { Timeline } from "./Timeline";
import { buildTimeline, frameAt, markAt, stepAtMs, stepEnd } from "../trace/timeline";
import { mediaExists } from "../api/transfer";

/** What a running attempt has shown so far, beyond its steps. */
export interface LiveView {
  /** The newest live screenshot, as a media path. */
  frame?: string;
  /** The newest screencast frame of the page, as a data: URL; shown before the screenshot. */
  screen?: string;
  check?: Check;
  events: AppEvent[];
}

/** The least share of the trace's height the tabs get, the gate and its evidence first among them: the page's pictures are the main view. */
const TABS_SHARE = "25%";

/** The most share of the trace's height the tabs take however tall they were made, so the page's pictures keep room. */
const TABS_MAX = "60%";

/** The events of an attempt that has none: one array, so the timeline is not rebuilt on each step. */
const NO_EVENTS: AppEvent[] = [];

/** The steps of an attempt whose summaries are on their way. */
const NO_STEPS: StepSummary[] = [];

/** Props of TraceViewer. */
export interface TraceViewerProps {
  title: string;
  plan: Action[];
  columns: Column[];
  /** Every step, summarised; null while a long attempt's summaries are read. */
  steps: StepSummary[] | null;
  /** Why they could not be read. */
  stepsError?: string | null;
  /** How many steps the attempt has. */
  count: number;
  /** The shown step whole; absent while it is read (see useStepDetails). */
  detail?: Step;
  /** Why the shown step could not be read whole. */
  detailError?: string | null;
  /** The finished attempt, for its verdicts and video; absent while it runs. */
  attempt?: AttemptHeader;
  /** Set while the attempt runs. */
  live?: LiveView;
  /** An imported run's replay of this attempt, null while it is on its way; a run made here has none. */
  replay?: Replay | null;
  /**
   * The frames the attempt's events rebuild, for the gate's state along the timeline (the
   * replay's, or fetched for a run made here); absent while unknown.
   */
  frames?: Frame[] | null;
  runId: string;
  /** An imported run's signature, as checked at its import; absent for a run made here. */
  signature?: Signature;
  /** The shown step's position in steps. */
  current: number;
  onStep(i: number): void;
  /** Saves one of the run's media files where the user chooses (the Playwright trace). */
  onSaveMedia?(name: string): void;
  /** Exports the finished attempt's network requests as a HAR file; absent while it runs. */
  onExportHAR?(): void;
  /** Runs the attempt again; absent while a run goes. */
  onRun?(): void;
  /** Loads an attempt's action ledger, and saves this one's as CSV. */
  loadLedger?(runId: string, slug: string): Promise<LedgerEntry[]>;
  onExportLedger?(): void;
  /** Loads every step's requests of an attempt, for the whole attempt's network table. */
  loadRequests?(runId: string, slug: string): Promise<AttemptRequests>;
  /** What the trace is called to a screen reader and a test; "Trace" unless given. */
  label?: string;
  /**
   * One of two traces side by side (a comparison's pair): the step list narrow, the step's
   * After alone to begin with, and no tabs, so the picture keeps its size in half the width.
   */
  compact?: boolean;
}

/** The step list's width in a compact trace, in px. */
const COMPACT_LIST = 170;

/**
 * A moment chosen on the timeline or the replay rather than by step: its step, replay frame
 * and timeline mark. It holds while its step is the shown one.
 */
interface Pick {
  step: number;
  frame: number;
  mark: number;
}

/**
 * One attempt's trace in panes that fit the window: the steps on the left; the chosen step's
 * screenshot (before, after, live or the video) in the centre with the timeline under it; the
 * tabs below. The step list, the timeline, the replay's frames and the video are one
 * selection: choosing on any of them moves the others. Steps move with Left/Right/Home/End;
 * the panes' sizes are remembered.
 */
export function TraceViewer(p: TraceViewerProps) {
  const { attempt } = p;
  const steps = p.steps ?? NO_STEPS;
  const n = p.count;
  const i = Math.min(p.current, Math.max(n - 1, 0));
  /** The shown step, summarised (once the summaries are here) and whole (once it is read). */
  const step = steps[i];
  const detail = p.detail && (!step || p.detail.index === step.index) ? p.detail : undefined;
  const pending = n > 0 && !detail ? (p.detailError ? `Could not read step ${i + 1}: ${p.detailError}` : `Reading step ${i + 1}…`) : undefined;
  const listing = p.steps ? null : p.stepsError ? `Could not list the steps: ${p.stepsError}` : `Listing the ${n} steps…`;
  const description = step?.description ?? detail?.action.description;
  const [listWidth, setListWidth] = useStoredSize("steps", 230, 160, 520);
  const [tabsHeight, setTabsHeight] = useStoredSize("tabs", 160, 110, 560);
  const [view, setView] = useState<View | null>(p.compact ? "after" : null);
  /** The chosen tab; until the user picks one, an imported run opens on its replay. */
  const [tab, setTab] = useState<string | null>(null);
  const [pick, setPick] = useState<Pick | null>(null);
  /** The video's time while it is shown, and whether the last choice came from it. */
  const [playhead, setPlayhead] = useState<number | null>(null);
  const [fromVideo, setFromVideo] = useState(false);
  const video = attempt?.video;
  const events = attempt?.events ?? p.live?.events ?? NO_EVENTS;
  const frames = p.frames ?? p.replay?.frames;
  /** The verify step that judged the gate last, when the attempt ended without it holding. */
  const gateFailedAt =
    attempt && attempt.terminal !== "completed" && steps.length > 0 && steps[steps.length - 1].kind === "verify" ? steps.length - 1 : undefined;
  const imported = p.replay !== undefined;
  const gate = attempt?.verdicts.gate.done;
  const answers = attempt?.answers?.length ?? 0;
  const line = useMemo(
    () => buildTimeline({ steps, events, frames, final: gate === undefined ? undefined : { gate, answers } }),
    [steps, events, frames, gate, answers],
  );
  const chosen = pick && pick.step === i ? pick : null;
  const mark = chosen?.mark ?? line.stepMark[i] ?? 0;
  const timed = step ?? detail;
  const frame = chosen?.frame ?? (timed ? frameAt(stepEnd(timed), events) : 0);
  const seekMs = line.marks[mark]?.at_ms ?? 0;
  useEffect(() => setPlayhead(null), [p.runId, video]);
  /** The Playwright trace's name once it is known to be on disk: only a file there is offered. */
  const [savable, setSavable] = useState<string | null>(null);
  const pwTrace = attempt?.trace;
  useEffect(() => {
    let current = true;
    setSavable(null);
    if (pwTrace) mediaExists(p.runId, pwTrace).then((ok) => current && ok && setSavable(pwTrace));
    return () => {
      current = false;
    };
  }, [p.runId, pwTrace]);

  const { onStep: setStep } = p;
  /** Chooses a step from the list, the keys or the buttons. */
  const onStep = (k: number) => {
    setPick(null);
    setFromVideo(false);
    setStep(k);
  };
  /** Chooses a mark of the timeline: its step, its frame and its moment. */
  const chooseMark = (k: number) => {
    const m = line.marks[k];
    if (!m) return;
    setPick({ step: m.step, frame: m.frame, mark: k });
    setFromVideo(false);
    setStep(m.step);
  };
  /** Chooses a replay frame: the moment of the event that made it. */
  const chooseFrame = (f: number) => {
    const at = f > 0 ? events[f - 1]?.at_ms : undefined;
    const s = at === undefined ? 0 : stepAtMs(at, steps);
    const k = at === undefined ? -1 : line.marks.findIndex((m) => m.kind === "event" && m.frame === f);
    setPick({ step: s, frame: f, mark: k >= 0 ? k : (line.stepMark[s] ?? 0) });
    setFromVideo(false);
    setStep(s);
  };
  /** Follows the video: the step at its time becomes the chosen one, without seeking back. */
  const onTime = (ms: number) => {
    setPlayhead(ms);
    if (steps.length === 0) return;
    const k = stepAtMs(ms, steps);
    if (k === i) return;
    setPick(null);
    setFromVideo(true);
    setStep(k);
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (n === 0 || ownsKeys(e.target) || modified(e)) return;
      const to = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: n - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      setPick(null);
      setFromVideo(false);
      setStep(Math.max(0, Math.min(n - 1, to)));
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [i, n, setStep]);

  return (
    <section className={`panel trace${p.compact ? " compact" : ""}`} aria-label={p.label ?? "Trace"}>
      <div className="trace-head">
        <h2>Trace: {p.title}</h2>
        <SignatureBadge signature={p.signature} details />
        <p className="ended" data-testid="ended">
          {attempt ? (
            <>
              Ended <strong>{attempt.terminal}</strong>: {attempt.reason}
            </>
          ) : (
            <span className="muted">running…</span>
          )}
        </p>
        {!p.compact && <BrowserLog log={attempt?.browser_log} />}
        <div className="stepper">
          {!p.compact && (
            <button type="button" onClick={p.onRun} disabled={!p.onRun}>
              <span aria-hidden="true">▶</span> Run again
            </button>
          )}
          <button type="button" onClick={() => onStep(i - 1)} disabled={i <= 0}>
            <span aria-hidden="true">←</span> Previous step
          </button>
          <button type="button" onClick={() => onStep(i + 1)} disabled={i >= n - 1}>
            Next step <span aria-hidden="true">→</span>
          </button>
          {savable && p.onSaveMedia && (
            <button type="button" title={`opens in Playwright's viewer: npx playwright show-trace ${savable}`} onClick={() => p.onSaveMedia!(savable)}>
              Save Playwright trace
            </button>
          )}
          {p.onExportHAR && (
            <button type="button" title="the attempt's recorded requests as a HAR 1.2 file, which browsers' developer tools open" onClick={p.onExportHAR}>
              Export HAR
            </button>
          )}
        </div>
      </div>
      <div className="trace-body" style={{ gridTemplateColumns: `${p.compact ? COMPACT_LIST : listWidth}px auto minmax(0, 1fr)` }}>
        {listing ? (
          <p className={`step-list ${p.stepsError ? "warn" : "muted"}`} role="status">
            {listing}
          </p>
        ) : (
          <StepList steps={steps} plan={p.plan} current={i} gateFailedAt={gateFailedAt} onStep={onStep} />
        )}
        {p.compact ? <span /> : <Splitter label="Resize the steps list" orientation="vertical" size={listWidth} min={160} max={520} direction={1} onSize={setListWidth} />}
        <div className="trace-main" style={{ gridTemplateRows: p.compact ? "minmax(0, 1fr) auto" : `minmax(0, 1fr) auto auto clamp(${TABS_SHARE}, ${tabsHeight}px, ${TABS_MAX})` }}>
          <ShotViewer
            heading={
              <h3 className="step-heading" data-testid="step-heading">
                {n > 0 ? `Step ${i + 1} of ${n}${description === undefined ? "" : `: ${description}`}` : "No step yet"}
              </h3>
            }
            facts={detail ? <StepFacts step={detail} viewport={attempt?.viewport} /> : pending && <p className={p.detailError ? "warn" : "muted"} role="status">{pending}</p>}
            runId={p.runId}
            step={detail}
            pending={pending}
            seekMs={seekMs}
            follow={!fromVideo}
            view={view}
            onView={setView}
            liveFrame={p.live?.frame}
            liveScreen={p.live?.screen}
            video={video}
            evidence={attempt?.evidence}
            onTime={onTime}
          />
          {listing ? (
            <p className="timeline muted">The timeline comes with the steps' list.</p>
          ) : (
            <Timeline
              runId={p.runId}
              line={line}
              steps={steps}
              evidence={attempt?.evidence}
              aspect={attempt?.viewport && attempt.viewport.height > 0 ? attempt.viewport.width / attempt.viewport.height : undefined}
              selected={mark} playhead={view === "video" ? playhead : null} onChoose={chooseMark} onSeek={(ms) => chooseMark(markAt(ms, line))} />
          )}
          {!p.compact && (
            <>
              <Splitter label="Resize the details" orientation="horizontal" size={tabsHeight} min={120} max={560} direction={-1} onSize={setTabsHeight} />
              <DetailTabs
                title={p.title}
                step={detail}
                pending={pending}
                attempt={attempt}
                check={p.live?.check}
                events={events}
                columns={p.columns}
                replay={p.replay}
                frame={frame}
                onFrame={chooseFrame}
                tab={tab ?? (imported ? "replay" : "gate")}
                onTab={setTab}
                ledger={
                  attempt && p.loadLedger && p.onExportLedger
                    ? { runId: p.runId, slug: attempt.attempt, load: p.loadLedger, onExport: p.onExportLedger }
                    : undefined
                }
                requests={attempt && p.loadRequests ? { runId: p.runId, slug: attempt.attempt, load: p.loadRequests, onStep } : undefined}
              />
            </>
          )}
        </div>
      </div>
    </section>
  );
}
