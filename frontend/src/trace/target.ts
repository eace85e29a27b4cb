// Targets and actions in words, the way plans show them (agent.Target.String): role[name] for
// a role, `label "Title"` and the like for the other locators. Pure.
import type { Action, Target } from "../api/types";

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
  if (a.kind === "verify") return "verify all completion conditions";
  const value = a.value ? `“${a.value}”` : "";
  return [a.kind, targetText(a.target), value].filter(Boolean).join(" ");
}
