import { useEffect, useRef } from "react";
import type { Action, Step } from "../api/types";
import { actionText } from "../trace/target";

/** Props of StepList. */
export interface StepListProps {
  steps: Step[];
  /** The plan, whose steps not reached yet are listed after the observed ones. */
  plan: Action[];
  /** The chosen step's position in steps. */
  current: number;
  onStep(k: number): void;
}

/** A step's status as a mark and words: failed, held or denied, or done. */
function status(s: Step): { mark: string; text: string; className: string } {
  if (s.error) return { mark: "✗", text: "error", className: "error" };
  if (s.decision.admission !== "allow") return { mark: "⏸", text: s.decision.admission, className: "held" };
  return { mark: "✓", text: "ok", className: "ok" };
}

/**
 * The observed steps, one button each with its status, class, duration and admission, and
 * below them the planned steps never reached. Only the chosen step is in the tab order, and
 * when the choice moves (by ←/→) while the focus is in the list, the focus moves with it.
 */
export function StepList({ steps, plan, current, onStep }: StepListProps) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const el = list.current;
    if (el?.contains(document.activeElement)) el.querySelector<HTMLElement>('[aria-current="step"]')?.focus();
  }, [current]);
  const unreached = plan.filter((_, k) => !steps.some((s) => s.index === k));
  return (
    <nav className="step-list" aria-label="Steps">
      {steps.length === 0 && <p className="muted">No step observed yet.</p>}
      <ol ref={list}>
        {steps.map((s, k) => {
          const st = status(s);
          return (
            <li key={k}>
              <button type="button" aria-current={k === current ? "step" : undefined} tabIndex={k === current ? 0 : -1} onClick={() => onStep(k)} title={actionText(s.action)}>
                <span className={`status ${st.className}`} aria-label={st.text} role="img">{st.mark}</span>
                <span className="desc">{s.action.description}</span>
                <span className="meta muted num">
                  {s.decision.class} · {s.decision.admission} · {s.duration_ms} ms
                </span>
              </button>
            </li>
          );
        })}
        {unreached.map((a) => (
          <li key={a.id} className="unreached">
            <span className="desc">{a.description}</span>
            <span className="meta muted">not reached</span>
          </li>
        ))}
      </ol>
    </nav>
  );
}
