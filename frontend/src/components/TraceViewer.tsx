import { useEffect } from "react";
import type { Action, Attempt, Step } from "../api/types";
import { GateChecklist } from "./GateChecklist";
import { Media } from "./Media";
import { StepDetail } from "./StepDetail";
import { VerdictList } from "./VerdictList";

/** Props of TraceViewer. */
export interface TraceViewerProps {
  title: string;
  plan: Action[];
  steps: Step[];
  /** The finished attempt, for its verdicts and video; absent while it runs. */
  attempt?: Attempt;
  runId: string;
  /** The shown step's position in steps. */
  current: number;
  onStep(i: number): void;
}

/** An action as plans show it: role[name] and the value. */
function target(a: Action): string {
  if (a.kind === "verify") return "all completion conditions";
  const t = a.target.role ? `${a.target.role}[${a.target.name}]` : "";
  return a.value ? `${t} “${a.value}”` : t;
}

/** True when a key press belongs to a form control rather than to the trace. */
function inControl(e: KeyboardEvent): boolean {
  const el = e.target as HTMLElement | null;
  return !!el && (["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName) || el.isContentEditable);
}

/** The action plan beside the observed trace, stepped with buttons and Left/Right/Home/End. */
export function TraceViewer({ title, plan, steps, attempt, runId, current, onStep }: TraceViewerProps) {
  const n = steps.length;
  const i = Math.min(current, Math.max(n - 1, 0));
  const step = steps[i];

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
          <button type="button" onClick={() => onStep(i - 1)} disabled={i <= 0}>
            <span aria-hidden="true">←</span> Previous step
          </button>
          <button type="button" onClick={() => onStep(i + 1)} disabled={i >= n - 1}>
            Next step <span aria-hidden="true">→</span>
          </button>
          <span className="muted">←/→, Home/End</span>
        </div>
      </div>
      <div className="trace-cols">
        <div>
          <h3>Action plan</h3>
          <ol className="plan">
            {plan.map((a, k) => (
              <li key={a.id} className={step?.index === k ? "current" : steps.some((s) => s.index === k) ? "" : "unreached"}>
                <span className="desc">{a.description}</span>
                <code>{target(a)}</code>
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
                <li key={k}>
                  <button type="button" aria-current={k === i ? "step" : undefined} onClick={() => onStep(k)}>
                    {s.action.description}
                    <span className="muted num"> {s.duration_ms} ms</span>
                    {s.error && <span className="tag-wrong">error</span>}
                  </button>
                </li>
              ))}
            </ol>
          )}
        </div>
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
            <VerdictList attempt={attempt} />
            <GateChecklist heading="Completion gate" conditions={attempt.verdicts.gate.conditions} />
          </div>
          {attempt.video && (
            <details className="video">
              <summary>Recorded video</summary>
              <Media runId={runId} path={attempt.video} kind="video" label="Recorded video" />
            </details>
          )}
        </div>
      )}
    </section>
  );
}
