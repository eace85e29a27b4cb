import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from "react";
import type { ApprovalAsk } from "../api/types";
import { place } from "../trace/boxes";
import { ShotFrame } from "./ShotFrame";
import "./ApprovalCard.css";

/** Props of ApprovalCard. */
export interface ApprovalCardProps {
  ask: ApprovalAsk;
  /** The asking attempt's title. */
  title: string;
  /** How many more requests wait behind this one. */
  queued: number;
  onAnswer(id: string, answer: "approve" | "deny"): void;
}

/**
 * The question a run asks immediately before an irreversible action: what would happen, in
 * the user's words, with the page as it was and the control marked on it. It takes the keyboard focus when a request
 * arrives (and gives it back after): Enter or Y approves, Esc or N denies; Tab stays inside.
 */
export function ApprovalCard({ ask, title, queued, onAnswer }: ApprovalCardProps) {
  const id = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const q = ask.request;
  const differs = (q.compared ?? []).filter((c) => c.differs);

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    return () => before?.focus?.();
  }, []);
  useEffect(() => dialog.current?.focus(), [ask.id]);

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    e.stopPropagation(); // the window's own shortcuts wait until this is answered
    if (e.repeat || e.altKey || e.ctrlKey || e.metaKey) return;
    const onButton = (e.target as HTMLElement).tagName === "BUTTON";
    const key = e.key.toLowerCase();
    if (key === "y" || (key === "enter" && !onButton)) {
      e.preventDefault();
      onAnswer(ask.id, "approve");
    } else if (key === "n" || key === "escape") {
      e.preventDefault();
      onAnswer(ask.id, "deny");
    } else if (key === "tab") {
      trapTab(e, dialog.current);
    }
  };

  return (
    <div className="approval-backdrop">
      <div
        ref={dialog}
        className="approval-card"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${differs.length > 0 ? `${id}-differs ` : ""}${id}-what ${q.again ? `${id}-again` : ""}`.trim()}
        tabIndex={-1}
        onKeyDown={onKey}
      >
        <h2 id={`${id}-title`}>Approve “{q.action}”?</h2>
        {differs.length > 0 && (
          <div id={`${id}-differs`} className="approval-differs">
            <strong>Not as the task asked:</strong>
            <ul>
              {differs.map((c) => (
                <li key={c.field}>{c.differs}.</li>
              ))}
            </ul>
          </div>
        )}
        <p id={`${id}-what`}>
          <strong>{title}</strong> stopped at step {q.step + 1}, just before it acts. Nothing has been sent yet; it waits for
          your answer.
        </p>
        {q.again && (
          <p id={`${id}-again`} className="approval-again">
            <strong>Your earlier approval is void:</strong> {q.again}.
          </p>
        )}
        <div className="approval-body">
          <div>
            <dl className="approval-facts">
              {facts(ask).map(([term, value, key]) => (
                <div key={term} className={key ? "approval-key" : undefined}>
                  <dt>{term}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
            {(q.data ?? []).length > 0 && (
              <>
                <h3>What it sends</h3>
                <dl className="approval-facts">
                  {(q.data ?? []).map((f) => (
                    <div key={f.name}>
                      <dt>{f.name}</dt>
                      <dd>{f.value === "" ? <span className="muted">(empty)</span> : f.value}</dd>
                    </div>
                  ))}
                </dl>
              </>
            )}
          </div>
          {q.screenshot && (
            <figure className="approval-shot">
              <ShotFrame
                runId={ask.run_id}
                path={q.screenshot}
                label="The page as it was when this was asked"
                boxes={q.target_box ? [{ kind: "target", ...place(q.target_box), label: "this control" }] : []}
              />
              <figcaption className="muted">
                The page when it asked; the control is {q.target}
                {q.target_box ? ", marked" : ""}.
              </figcaption>
            </figure>
          )}
        </div>
        <div className="approval-actions">
          <button type="button" className="primary" aria-keyshortcuts="Enter Y" onClick={() => onAnswer(ask.id, "approve")}>
            Approve
          </button>
          <button type="button" aria-keyshortcuts="Escape N" onClick={() => onAnswer(ask.id, "deny")}>
            Deny
          </button>
          <span className="muted">
            Enter or Y approves · Esc or N denies · no answer in time holds it: nothing is sent
            {queued > 0 && ` · ${queued} more waiting`}
          </span>
        </div>
      </div>
    </div>
  );
}

/** The request's main facts as [term, value, whether it is a key detail], absent ones left out. */
function facts({ request: q }: ApprovalAsk): [string, ReactNode, boolean][] {
  const out: [string, ReactNode, boolean][] = [];
  if (q.effect) out.push(["What it does", q.effect, true]);
  out.push(["It will use", <code>{q.target}</code>, false]);
  const asked = (q.compared ?? []).filter((c) => !c.differs && c.asked).map((c) => `${c.field} ${c.now}`);
  if (asked.length > 0) out.push(["As the task asked", asked.join(", "), false]);
  if (q.why) out.push(["Why it asks", q.why, false]);
  if (q.principal) out.push(["Signed in as", q.principal, true]);
  if (q.recipient) out.push(["Recipient", q.recipient, true]);
  if (q.amount) out.push(["Amount", q.amount, true]);
  out.push(["Can it be undone?", q.permanence, false], ["Page", <code>{q.url}</code>, false]);
  return out;
}

/** Keeps Tab and Shift+Tab inside the dialog: past its last control to its first, and back. */
function trapTab(e: KeyboardEvent, dialog: HTMLElement | null) {
  const controls = Array.from(dialog?.querySelectorAll<HTMLElement>("button") ?? []);
  if (controls.length === 0) return;
  const first = controls[0];
  const last = controls[controls.length - 1];
  const at = document.activeElement;
  if (e.shiftKey && (at === first || at === dialog)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && at === last) {
    e.preventDefault();
    first.focus();
  }
}
