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
 * Every error of a message in full, above the workspace, each with the place it names, as
 * `task check` lists them: the status bar has room for one line only. Dismissed by its button.
 */
export function ErrorPanel({ text, onDismiss }: { text: string; onDismiss(): void }) {
  const lines = errorLines(text);
  return (
    <section className="banner warn error-panel" role="alert" aria-label="Errors">
      <div className="panel-head">
        <strong>{lines.length === 1 ? "Error" : `${lines.length} errors`}</strong>
        <button type="button" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
      <ul>
        {lines.map((l, i) => (
          <li key={i}>
            {l.path && <code>{l.path}</code>}
            {l.path && ": "}
            {l.problem}
          </li>
        ))}
      </ul>
    </section>
  );
}
