import { useEffect, useState } from "react";
import type { Action, Attempt, Step } from "../api/types";
import { actionText } from "../trace/target";
import type { Column } from "../verdicts";
import { GateChecklist } from "./GateChecklist";
import { StepDetail } from "./StepDetail";
import { VerdictList } from "./VerdictList";
import { VideoPanel } from "./VideoPanel";

/** Props of TraceViewer. */
export interface TraceViewerProps {
  title: string;
  plan: Action[];
  columns: Column[];
  steps: Step[];
  /** The finished attempt, for its verdicts and video; absent while it runs. */
  attempt?: Attempt;
  runId: string;
  /** The shown step's position in steps. */
  current: number;
  onStep(i: number): void;
  /** Saves one of the run's media files where the user chooses (the Playwright trace). */
  onSaveMedia?(name: string): void;
  /** Runs the attempt again; absent while a run goes. */
  onRun?(): void;
}

/** True when a key press belongs to a form control rather than to the trace. */
function inControl(e: KeyboardEvent): boolean {
  const el = e.target as HTMLElement | null;
  return !!el && (["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName) || el.isContentEditable);
}

/**
 * The action plan beside the observed trace and the recorded video, stepped with buttons and
 * Left/Right/Home/End. Choosing a step seeks the video; the step the video plays is marked.
 */
export function TraceViewer({ title, plan, columns, steps, attempt, runId, current, onStep, onSaveMedia, onRun }: TraceViewerProps) {
  const n = steps.length;
  const i = Math.min(current, Math.max(n - 1, 0));
  const step = steps[i];
  /** The step the recorded video is playing, from its time updates. */
  const [playing, setPlaying] = useState<number | null>(null);
  const video = attempt?.video;
  useEffect(() => setPlaying(null), [runId, video]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (n === 0 || inControl(e) || e.altKey || e.ctrlKey || e.metaKey) return;
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
      <div className="panel-head">
        <h2>Trace: {title}</h2>
        <div className="stepper">
          <button type="button" onClick={onRun} disabled={!onRun}>
            <span aria-hidden="true">▶</span> Run again
          </button>
          <button type="button" onClick={() => onStep(i - 1)} disabled={i <= 0}>
            <span aria-hidden="true">←</span> Previous step
          </button>
          <button type="button" onClick={() => onStep(i + 1)} disabled={i >= n - 1}>
            Next step <span aria-hidden="true">→</span>
          </button>
          <span className="muted">←/→, Home/End</span>
        </div>
      </div>
      <div className={video ? "trace-cols with-video" : "trace-cols"}>
        <div>
          <h3>Action plan</h3>
          <ol className="plan">
            {plan.map((a, k) => (
              <li key={a.id} className={step?.index === k ? "current" : steps.some((s) => s.index === k) ? "" : "unreached"}>
                <span className="desc">{a.description}</span>
                <code>{actionText(a)}</code>
              </li>
            ))}
          </ol>
        </div>
        <div>
          <h3>Observed trace</h3>
          {n === 0 ? (
            <p className="muted">No actions observed.</p>
          ) : (
            <ol className="observed">
              {steps.map((s, k) => (
                <li key={k} className={k === playing ? "playing" : undefined}>
                  <button type="button" aria-current={k === i ? "step" : undefined} onClick={() => onStep(k)}>
                    {s.action.description}
                    <span className="muted num"> {s.duration_ms} ms</span>
                    {s.error && <span className="tag-wrong">error</span>}
                    {k === playing && <span className="tag playing-tag">in video</span>}
                  </button>
                </li>
              ))}
            </ol>
          )}
        </div>
        {video && <VideoPanel runId={runId} path={video} steps={steps} current={i} onPlaying={setPlaying} />}
        {attempt?.trace && onSaveMedia && (
          <p className="trace-file">
            <button type="button" onClick={() => onSaveMedia(attempt.trace!)}>
              Save Playwright trace
            </button>{" "}
            <span className="muted">opens in Playwright's viewer: npx playwright show-trace {attempt.trace}</span>
          </p>
        )}
      </div>
      {step && (
        <>
          <h3 className="step-heading" data-testid="step-heading">
            Step {i + 1} of {n}: {step.action.description}
          </h3>
          <StepDetail step={step} runId={runId} />
        </>
      )}
      {attempt && (
        <div className="judgement">
          <p>
            Ended <strong>{attempt.terminal}</strong>: {attempt.reason}
          </p>
          <div className="two">
            <VerdictList attempt={attempt} columns={columns} />
            <GateChecklist heading="Completion gate" conditions={attempt.verdicts.gate.conditions} answers={attempt.answers} />
          </div>
        </div>
      )}
    </section>
  );
}
