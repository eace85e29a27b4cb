import { useEffect, useLayoutEffect, useMemo, useRef, useState, type UIEvent } from "react";
import type { Action, StepSummary } from "../api/types";
import { modified, typesText } from "../keys";
import { visibleRows } from "../layout/rows";
import { useElementSize } from "../layout/useElementSize";
import { searchSteps } from "../trace/search";
import { stepMark, type StepMark } from "../trace/summary";
import { actionWords } from "../trace/target";
import { PauseIcon } from "./icons";

/** Props of StepList. */
export interface StepListProps {
  steps: StepSummary[];
  /** The plan, whose steps not reached yet are listed after the observed ones. */
  plan: Action[];
  /** The chosen step's position in steps. */
  current: number;
  /** The position of the step whose check of the gate failed (an attempt that did not complete), if any. */
  gateFailedAt?: number;
  onStep(k: number): void;
}

/** Each row's height in px: rows are drawn only where the list is scrolled to. */
export const ROW_HEIGHT = 40;

/** The glyph of each mark: common ones every platform's fonts hold, and a drawn pause for a held step. */
function MarkGlyph({ kind }: { kind: StepMark["kind"] }) {
  if (kind === "held") return <PauseIcon />;
  return <>{kind === "ok" ? "✓" : kind === "error" ? "✗" : "!"}</>;
}

/**
 * The observed steps, one button each with its status, class, duration and admission, and
 * below them the planned steps never reached. A search field over them keeps the steps that
 * hold every word typed (by description, action, class, admission or "error"): / goes to it
 * from anywhere in the window, Esc clears it, Enter chooses the first step found. Only the
 * rows in view are drawn (a run of 10,000 steps draws a few dozen), and the chosen one is
 * scrolled into view. Only the chosen step is in the tab order, and when the choice moves
 * (by ←/→) while the focus is in the list, the focus moves with it.
 */
export function StepList({ steps, plan, current, gateFailedAt, onStep }: StepListProps) {
  const box = useRef<HTMLElement>(null);
  const field = useRef<HTMLInputElement>(null);
  // The list's height, as it is laid out: read when it changes, never on a step.
  const { height } = useElementSize(box);
  const [top, setTop] = useState(0);
  const [query, setQuery] = useState("");
  const refocus = useRef(false);
  const found = useMemo(() => searchSteps(steps, query), [steps, query]);
  const unreached = useMemo(() => {
    if (found) return [];
    const seen = new Set(steps.map((s) => s.index));
    return plan.filter((_, k) => !seen.has(k));
  }, [steps, plan, found]);
  /** How many steps are listed, the position in steps of the one on row k, and the chosen step's row (-1 when not found). */
  const shownSteps = found ? found.length : steps.length;
  const stepAt = (k: number) => (found ? found[k] : k);
  const row = found ? found.indexOf(current) : current;
  const n = shownSteps + unreached.length;
  const [first, last] = visibleRows(top, height, n, ROW_HEIGHT);

  // Bring the chosen step into view before it is painted; the focus follows it once drawn.
  const viewNow = useRef({ top, height });
  viewNow.current = { top, height };
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    refocus.current = el.contains(document.activeElement);
    const shown = viewNow.current.top;
    const room = viewNow.current.height || el.clientHeight; // unknown until the first measure lands
    if (row < 0) return;
    const at = row * ROW_HEIGHT;
    let to = shown;
    if (at < to) to = at;
    else if (at + ROW_HEIGHT > to + room) to = at + ROW_HEIGHT - room;
    if (to === shown) return;
    el.scrollTop = to;
    setTop(to);
  }, [row]);
  useLayoutEffect(() => {
    if (!refocus.current) return;
    const btn = box.current?.querySelector<HTMLElement>('[aria-current="step"]');
    if (btn) {
      btn.focus();
      refocus.current = false;
    }
  });

  // "/" from anywhere but a text field goes to the search (from a tab list or a splitter too).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "/" || typesText(e.target) || modified(e)) return;
      e.preventDefault();
      field.current?.focus();
      field.current?.select();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const onScroll = (e: UIEvent<HTMLElement>) => {
    setTop(e.currentTarget.scrollTop);
  };

  const rows = [];
  for (let k = first; k < last; k++) {
    const style = { top: k * ROW_HEIGHT, height: ROW_HEIGHT };
    if (k < shownSteps) {
      const at = stepAt(k);
      const s = steps[at];
      const st = stepMark(s, at === gateFailedAt);
      const reqs = s.failed_requests ?? 0;
      rows.push(
        <li key={k} style={style}>
          <button
            type="button"
            aria-current={at === current ? "step" : undefined}
            tabIndex={at === current || (row < 0 && k === 0) ? 0 : -1}
            onClick={() => onStep(at)}
            title={actionWords(s.kind, s.target, s.value)}
          >
            <span className={`status ${st.kind}`} aria-label={st.text} role="img" title={st.text}>
              <MarkGlyph kind={st.kind} />
            </span>
            <span className={st.kind === "error" ? "desc failed" : "desc"}>{s.description}</span>
            <span className="meta muted num">
              {reqs > 0 && (
                <span className="failed-requests" data-testid="failed-requests">
                  {reqs === 1 ? "1 request failed" : `${reqs} requests failed`} ·{" "}
                </span>
              )}
              {st.text === "check failed" && <span className="failed-requests">check failed · </span>}
              {s.class} · {s.admission} · {s.duration_ms} ms
            </span>
          </button>
        </li>,
      );
    } else {
      const a = unreached[k - shownSteps];
      rows.push(
        <li key={k} style={style} className="unreached">
          <span className="desc">{a.description}</span>
          <span className="meta muted">not reached</span>
        </li>,
      );
    }
  }
  return (
    <div className="step-pane">
      <div className="step-search">
        <input
          ref={field}
          type="search"
          aria-label="Search the steps"
          aria-keyshortcuts="/"
          placeholder="Search steps (/)"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.preventDefault();
              e.stopPropagation();
              if (query) setQuery("");
              else e.currentTarget.blur();
            } else if (e.key === "Enter" && found?.length) {
              e.preventDefault();
              onStep(found[0]);
            }
          }}
        />
        {found && (
          <span className="muted num" role="status" data-testid="steps-found">
            {found.length} of {steps.length}
          </span>
        )}
      </div>
      <nav className="step-list" aria-label="Steps" ref={box} onScroll={onScroll}>
        {steps.length === 0 && <p className="muted">No step observed yet.</p>}
        {found?.length === 0 && <p className="muted">No step holds “{query.trim()}”.</p>}
        <ol style={{ height: n * ROW_HEIGHT }}>{rows}</ol>
      </nav>
    </div>
  );
}
