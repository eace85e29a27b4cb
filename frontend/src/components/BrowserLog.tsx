/**
 * What the browser logged around the error that ended an attempt (Chromium's launch log,
 * Playwright's call log), collapsed under the one-line reason: kilobytes that explain a death
 * without burying why the attempt ended.
 */
export function BrowserLog({ log }: { log?: string }) {
  if (!log) return null;
  const lines = log.split("\n").length;
  return (
    <details className="browser-log">
      <summary title="what the browser logged around the error that ended the attempt">
        Browser log <span className="muted">({lines} {lines === 1 ? "line" : "lines"})</span>
      </summary>
      <pre aria-label="Browser log" tabIndex={0}>
        {log}
      </pre>
    </details>
  );
}
