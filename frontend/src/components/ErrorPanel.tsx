import type { ErrorKind } from "../api/client";
import type { Message } from "../state/useWorkbench";
import type { RunError } from "../state/live";
import { Media } from "./Media";

/** One error of the panel: its kind, the place it names ("t.yaml: at plan[2].target"), what is wrong there, and a screenshot of the page it happened on when there is one. */
export interface PanelError {
  kind: ErrorKind | "run";
  path: string;
  problem: string;
  /** The newest screenshot of the attempt the error came from, as a run's media path. */
  shot?: { runId: string; path: string };
}

/** An error's kind in words. */
const KIND_WORDS: Record<PanelError["kind"], string> = {
  invalid: "invalid input",
  not_found: "not found",
  conflict: "conflict",
  unavailable: "unavailable",
  cancelled: "cancelled",
  internal: "internal error",
  run: "run error",
};

/** One error of a message: where it is (a file's path to the value, "line 3: steps[1].action"), and what is wrong. */
export interface ErrorLine {
  path: string;
  problem: string;
}

/**
 * The errors of text, one a line, each split into the place it names and what is wrong there,
 * as a task file's errors name them ("t.yaml: at plan[2].target: no such role" → path
 * "t.yaml: at plan[2].target"; "t.yaml: line 3: …"); a line that names no place is all problem.
 */
export function errorLines(text: string): ErrorLine[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const m = /^(.*?: (?:at \S+|line \d+)): (.+)$/.exec(l);
      return m ? { path: m[1], problem: m[2] } : { path: "", problem: l };
    });
}

/**
 * The panel's errors: a failed call's message, each of its lines with the place it names (the
 * backend's path when the one line names none and does not say it), then every error the run reported, each under
 * its attempt's title with that attempt's newest screenshot.
 */
export function panelErrors(message: Message | null, run: RunError[], ctx: { runId: string | null; titleOf(slug: string): string; shotOf(slug: string): string | undefined }): PanelError[] {
  const out: PanelError[] = [];
  if (message?.kind === "error") {
    const lines = errorLines(message.text);
    const kind = message.error?.kind ?? "internal";
    const path = message.error?.path ?? "";
    for (const l of lines) out.push({ kind, path: l.path || (lines.length === 1 && !l.problem.includes(path) ? path : ""), problem: l.problem });
  }
  for (const e of run) {
    const shot = e.slug && ctx.runId ? ctx.shotOf(e.slug) : undefined;
    out.push({ kind: "run", path: e.slug ? ctx.titleOf(e.slug) : "", problem: e.message, shot: shot && ctx.runId ? { runId: ctx.runId, path: shot } : undefined });
  }
  return out;
}

/**
 * Every error in full, above the workspace, each with its kind and the place it names, as
 * `task check` lists them, and the page it happened on where there is a screenshot of it.
 * Dismissed by its button.
 */
export function ErrorPanel({ errors, onDismiss }: { errors: PanelError[]; onDismiss(): void }) {
  return (
    <section className="banner warn error-panel" role="alert" aria-label="Errors">
      <div className="panel-head">
        <strong>{errors.length === 1 ? "Error" : `${errors.length} errors`}</strong>
        <button type="button" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
      <ul>
        {errors.map((e, i) => (
          <li key={i}>
            <span className="tag">{KIND_WORDS[e.kind]}</span> {e.path && <code>{e.path}</code>}
            {e.path && ": "}
            {e.problem}
            {e.shot && (
              <span className="error-shot">
                <Media runId={e.shot.runId} path={e.shot.path} kind="image" label={`The page when it happened${e.path ? `: ${e.path}` : ""}`} />
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
