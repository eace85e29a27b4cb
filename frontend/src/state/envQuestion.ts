import type { EnvVar } from "../api/types";

/**
 * envQuestion is what the window asks before a run of a task file that reads environment
 * variables the user has not allowed: which, where the file reads them, and that their values
 * may be sent to the sites the task names. Only a yes allows them, for that run.
 */
export function envQuestion(vars: EnvVar[]): string {
  const lines = vars.map((v) => `• ${v.name} (${v.fields.join(", ")})${v.secret ? ": its name looks secret" : ""}`);
  return [
    "This task file reads environment variables you have not allowed, and may send their values to the sites it names:",
    ...lines,
    "Allow this run to read them? (Settings → What task files may reach allows them for every run.)",
  ].join("\n");
}
