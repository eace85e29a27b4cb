// Targets and actions in words, the way plans show them (agent.Target.String): role[name] for
// a role, `label "Title"` and the like for the other locators. Pure.
import type { Action, ActionKind, Target } from "../api/types";

/** The locators a target may use besides a role, in agent.Target.Locator's order. */
const LOCATORS = ["label", "placeholder", "test_id", "text", "css"] as const;

/** A target in words; "" when it names nothing. */
export function targetText(t: Target): string {
  if (t.role) return `${t.role}[${t.name ?? ""}]`;
  const kind = LOCATORS.find((k) => t[k]);
  return kind ? `${kind} "${t[kind]!.replace(/"/g, '\\"')}"` : "";
}

/** What an action does, in words: its kind, target and value ("fill textbox[Title] “Scan”"). */
export function actionText(a: Action): string {
  return actionWords(a.kind, targetText(a.target), a.value);
}

/** An action in words from its kind, its target in words and its value, as a step summary has them. */
export function actionWords(kind: ActionKind, target: string | undefined, value: string | undefined): string {
  if (kind === "verify") return "verify all completion conditions";
  return [kind, target, value ? `“${value}”` : ""].filter(Boolean).join(" ");
}
