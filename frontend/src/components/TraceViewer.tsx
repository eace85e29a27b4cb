import { useEffect, useState } from "react";
import type { Action, AppEvent, Attempt, Check, Replay, Step } from "../api/types";
import { Splitter } from "../layout/Splitter";
import { useStoredSize } from "../layout/useStoredSize";
import { modified, ownsKeys } from "../keys";
import type { Column } from "../verdicts";
import { DetailTabs } from "./DetailTabs";
import { ShotViewer, type View } from "./ShotViewer";
import { StepFacts } from "./StepFacts";
import { StepList } from "./StepList";

/** What a running attempt has shown so far, beyond its steps. */
export interface LiveView {
  /** The newest live screenshot, as a media path. */
  frame?: string;
  /** The newest screencast frame of the page, as a data: URL; shown before the screenshot. */
  screen?: string;
  check?: Check;
  events: AppEvent[];
}

/** Props of TraceViewer. */
export interface TraceViewerProps {
  title: string;
  plan: Action[];
  columns: Column[];
  steps: Step[];
  /** The finished attempt, for its verdicts and video; absent while it runs. */
  attempt?: Attempt;
  /** Set while the attempt runs. */
  live?: LiveView;
  /** An imported run's replay of this attempt. */
  replay?: Replay;
  runId: string;
  /** The shown step's position in steps. */
  current: number;
  onStep(i: number): void;
  /** Saves one of the run's media files where the user chooses (the Playwright trace). */
  onSaveMedia?(name: string): void;
  /** Runs the attempt again; absent while a run goes. */
  onRun?(): void;
}

/**
 * One attempt's trace in panes that fit the window: the steps on the left; the chosen step's
 * screenshot (before, after, live or the video) in the centre; the tabs below it. Steps move
 * with Left/Right/Home/End; the panes' sizes are remembered.
 */
export function TraceViewer(p: TraceViewerProps) {
  const { steps, attempt } = p;
  const n = steps.length;
  const i = Math.min(p.current, Math.max(n - 1, 0));
  const step = steps[i];
  const [listWidth, setListWidth] = useStoredSize("steps", 230, 160, 520);
  const [tabsHeight, setTabsHeight] = useStoredSize("tabs", 160, 110, 560);
  const [view, setView] = useState<View | null>(null);
  /** The chosen tab; until the user picks one, an imported run opens on its replay. */
  const [tab, setTab] = useState<string | null>(null);
  const [frame, setFrame] = useState(0);
  /** The step the recorded video is playing, from its time updates. */
  const [playing, setPlaying] = useState<number | null>(null);
  const video = attempt?.video;
  useEffect(() => setPlaying(null), [p.runId, video]);
  useEffect(() => setFrame(0), [p.replay]);

  const { onStep } = p;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (n === 0 || ownsKeys(e.target) || modified(e)) return;
      const to = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: n - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      onStep(Math.max(0, Math.min(n - 1, to)));
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [i, n, onStep]);

  return (
    <section className="panel trace" aria-label="Trace">
      <div className="trace-head">
        <h2>Trace: {p.title}</h2>
        <p className="ended" data-testid="ended">
          {attempt ? (
            <>
              Ended <strong>{attempt.terminal}</strong>: {attempt.reason}
            </>
          ) : (
            <span className="muted">running…</span>
          )}
        </p>
        <div className="stepper">
          <button type="button" onClick={p.onRun} disabled={!p.onRun}>
            <span aria-hidden="true">▶</span> Run again
          </button>
          <button type="button" onClick={() => onStep(i - 1)} disabled={i <= 0}>
            <span aria-hidden="true">←</span> Previous step
          </button>
          <button type="button" onClick={() => onStep(i + 1)} disabled={i >= n - 1}>
            Next step <span aria-hidden="true">→</span>
          </button>
          {attempt?.trace && p.onSaveMedia && (
            <button type="button" title={`opens in Playwright's viewer: npx playwright show-trace ${attempt.trace}`} onClick={() => p.onSaveMedia!(attempt.trace!)}>
              Save Playwright trace
            </button>
          )}
        </div>
      </div>
      <div className="trace-body" style={{ gridTemplateColumns: `${listWidth}px auto minmax(0, 1fr)` }}>
        <StepList steps={steps} plan={p.plan} current={i} playing={playing} onStep={onStep} />
        <Splitter label="Resize the steps list" orientation="vertical" size={listWidth} min={160} max={520} direction={1} onSize={setListWidth} />
        <div className="trace-main" style={{ gridTemplateRows: `minmax(0, 1fr) auto ${tabsHeight}px` }}>
          <ShotViewer
            heading={
              <h3 className="step-heading" data-testid="step-heading">
                {step ? `Step ${i + 1} of ${n}: ${step.action.description}` : "No step yet"}
              </h3>
            }
            facts={step && <StepFacts step={step} />}
            runId={p.runId}
            step={step}
            steps={steps}
            current={i}
            view={view}
            onView={setView}
            liveFrame={p.live?.frame}
            liveScreen={p.live?.screen}
            video={video}
            onPlaying={setPlaying}
          />
          <Splitter label="Resize the details" orientation="horizontal" size={tabsHeight} min={120} max={560} direction={-1} onSize={setTabsHeight} />
          <DetailTabs
            title={p.title}
            step={step}
            attempt={attempt}
            check={p.live?.check}
            events={attempt?.events ?? p.live?.events ?? []}
            columns={p.columns}
            replay={p.replay}
            frame={frame}
            onFrame={setFrame}
            tab={tab ?? (p.replay ? "replay" : "gate")}
            onTab={setTab}
          />
        </div>
      </div>
    </section>
  );
}
