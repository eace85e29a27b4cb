import { useLayoutEffect, useMemo, useRef, useState, type UIEvent } from "react";
import type { Action, StepSummary } from "../api/types";
import { visibleRows } from "../layout/rows";
import { actionWords } from "../trace/target";

/** Props of StepList. */
export interface StepListProps {
  steps: StepSummary[];
  /** The plan, whose steps not reached yet are listed after the observed ones. */
  plan: Action[];
  /** The chosen step's position in steps. */
  current: number;
  onStep(k: number): void;
}

/** Each row's height in px: rows are drawn only where the list is scrolled to. */
export const ROW_HEIGHT = 40;

/** A step's status as a mark and words: failed, held or denied, or done. */
function status(s: StepSummary): { mark: string; text: string; className: string } {
  if (s.failed) return { mark: "✗", text: "error", className: "error" };
  if (s.admission !== "allow") return { mark: "⏸", text: s.admission, className: "held" };
  return { mark: "✓", text: "ok", className: "ok" };
}

/**
 * The observed steps, one button each with its status, class, duration and admission, and
 * below them the planned steps never reached. Only the rows in view are drawn (a run of
 * 10,000 steps draws a few dozen), and the chosen one is scrolled into view. Only the chosen
 * step is in the tab order, and when the choice moves (by ←/→) while the focus is in the
 * list, the focus moves with it.
 */
export function StepList({ steps, plan, current, onStep }: StepListProps) {
  const box = useRef<HTMLElement>(null);
  const [view, setView] = useState({ top: 0, height: 0 });
  const refocus = useRef(false);
  const unreached = useMemo(() => {
    const seen = new Set(steps.map((s) => s.index));
    return plan.filter((_, k) => !seen.has(k));
  }, [steps, plan]);
  const n = steps.length + unreached.length;
  const [first, last] = visibleRows(view.top, view.height, n, ROW_HEIGHT);

  // The list's height, as it is laid out: read when it changes, never on a step.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setView((v) => (v.height === el.clientHeight ? v : { ...v, height: el.clientHeight }));
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const watch = new ResizeObserver(measure);
    watch.observe(el);
    return () => watch.disconnect();
  }, []);
  // Bring the chosen step into view before it is painted; the focus follows it once drawn.
  const viewNow = useRef(view);
  viewNow.current = view;
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    refocus.current = el.contains(document.activeElement);
    const shown = viewNow.current.top;
    const height = viewNow.current.height || el.clientHeight; // unknown until the first measure lands
    const top = current * ROW_HEIGHT;
    let to = shown;
    if (top < to) to = top;
    else if (top + ROW_HEIGHT > to + height) to = top + ROW_HEIGHT - height;
    if (to === shown) return;
    el.scrollTop = to;
    setView({ top: to, height });
  }, [current]);
  useLayoutEffect(() => {
    if (!refocus.current) return;
    const btn = box.current?.querySelector<HTMLElement>('[aria-current="step"]');
    if (btn) {
      btn.focus();
      refocus.current = false;
    }
  });

  const onScroll = (e: UIEvent<HTMLElement>) => {
    const top = e.currentTarget.scrollTop;
    setView((v) => (v.top === top ? v : { ...v, top }));
  };

  const rows = [];
  for (let k = first; k < last; k++) {
    const style = { top: k * ROW_HEIGHT, height: ROW_HEIGHT };
    if (k < steps.length) {
      const s = steps[k];
      const st = status(s);
      rows.push(
        <li key={k} style={style}>
          <button type="button" aria-current={k === current ? "step" : undefined} tabIndex={k === current ? 0 : -1} onClick={() => onStep(k)} title={actionWords(s.kind, s.target, s.value)}>
            <span className={`status ${st.className}`} aria-label={st.text} role="img">
              {st.mark}
            </span>
            <span className="desc">{s.description}</span>
            <span className="meta muted num">
              {s.class} · {s.admission} · {s.duration_ms} ms
            </span>
          </button>
        </li>,
      );
    } else {
      const a = unreached[k - steps.length];
      rows.push(
        <li key={k} style={style} className="unreached">
          <span className="desc">{a.description}</span>
          <span className="meta muted">not reached</span>
        </li>,
      );
    }
  }
  return (
    <nav className="step-list" aria-label="Steps" ref={box} onScroll={onScroll}>
      {steps.length === 0 && <p className="muted">No step observed yet.</p>}
      <ol style={{ height: n * ROW_HEIGHT }}>{rows}</ol>
    </nav>
  );
}
