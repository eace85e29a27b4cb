// A step's call as Playwright's trace viewer shows one: the locator in Playwright's words, its
// arguments, and the harness's log of what happened to it. Pure.
import type { Step, Target } from "../api/types";

const q = (s: string) => JSON.stringify(s);

/** One locator of t in Playwright's words, its container's and frames' first, name replaced by name. */
export function locatorText(t: Target, name = t.name): string {
  const parts: string[] = [];
  for (const f of t.frame ?? []) {
    parts.push(`frameLocator(${q(f.css ?? (f.name ? `iframe[name=${q(f.name)}]` : `iframe[title=${q(f.title ?? "")}]`))})`);
  }
  const w = t.within;
  if (w) {
    if (w.role) parts.push(`getByRole(${q(w.role)}${w.name ? `, { name: ${q(w.name)} }` : ""})`);
    else if (w.test_id) parts.push(`getByTestId(${q(w.test_id)})`);
    else if (w.css) parts.push(`locator(${q(w.css)})`);
  }
  if (t.role) parts.push(`getByRole(${q(t.role)}${name ? `, { name: ${q(name)} }` : ""})`);
  else if (t.label) parts.push(`getByLabel(${q(name ?? t.label)})`);
  else if (t.placeholder) parts.push(`getByPlaceholder(${q(t.placeholder)})`);
  else if (t.test_id) parts.push(`getByTestId(${q(t.test_id)})`);
  else if (t.text) parts.push(`getByText(${q(name ?? t.text)})`);
  else if (t.css) parts.push(`locator(${q(t.css)})`);
  return parts.length ? `page.${parts.join(".")}` : "";
}

/** The locator the step acted through: its target's, or its alias's when the alias matched. */
export function usedLocator(step: Step): string {
  const t = step.action.target;
  const byAlias = !!step.resolved && step.resolved === t.alias;
  return locatorText(t, byAlias ? t.alias : t.role ? t.name : (t.label ?? t.text));
}

/** The harness's log of the step, in order: the decision, approvals, how its target resolved, the page's record, how it ended. */
export function callLog(step: Step): string[] {
  const out: string[] = [];
  const d = step.decision;
  if (step.provenance === "observed") out.push("observed in the page: an outside agent took this action");
  else out.push(`${d.admission}: ${d.reason}`);
  for (const a of step.approvals ?? []) out.push(`approval asked: ${a.answer === "none" ? "no answer" : a.answer}${a.void ? " (void: the details changed before the commit)" : ""}`);
  if (step.guidance) out.push(`told the planner: ${step.guidance}`);
  if (step.resolved && step.resolved === step.action.target.alias) out.push(`the target matched by its alias “${step.resolved}”`);
  if (step.target_box) {
    const b = step.target_box;
    out.push(`the element was at ${Math.round(b.x)}, ${Math.round(b.y)} (${Math.round(b.width)}×${Math.round(b.height)}) in a ${b.viewport_width}×${b.viewport_height} page`);
  }
  if (step.unresolved) out.push("the target matched no element or several: nothing ran");
  const n = (k: number | undefined, one: string) => `${k ?? 0} ${one}${k === 1 ? "" : "s"}`;
  out.push(`${n(step.requests?.length, "request")}, ${n(step.console?.length, "console message")}, ${n(step.page_errors?.length, "page error")}${step.blocked?.length ? `, ${n(step.blocked.length, "blocked request")}` : ""}`);
  if (step.reconciliation) out.push(`reconciled: ${step.reconciliation.outcome}`);
  out.push(step.error ? `failed: ${step.error}` : "done");
  return out;
}
