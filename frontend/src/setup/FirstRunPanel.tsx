import type { BrowserStatus, SetupProgress, SetupState } from "../api/types";
import { Help } from "../components/Help";
import "./FirstRunPanel.css";

/** Props of FirstRunPanel. */
export interface FirstRunPanelProps {
  status: BrowserStatus;
  /** The setup as last reported. */
  setup: SetupState | null;
  /** Why the status could not be read or the setup not started. */
  error: string | null;
  onSetup(): void;
  onCancel(): void;
  onRecheck(): void;
}

/** What a progress phase is doing, in words. */
const PHASES: Record<SetupProgress["phase"], string> = {
  "": "Starting",
  driver: "Downloading the Playwright driver",
  node: "Downloading Node.js for the driver",
  chromium: "Downloading Playwright's Chromium",
  unpack: "Unpacking",
};

/** n bytes in MB, or n files while unpacking. */
function amount(n: number, phase: SetupProgress["phase"]): string {
  return phase === "unpack" ? `${n} files` : `${(n / 1e6).toFixed(1)} MB`;
}

/** The progress in words: "Downloading Playwright's Chromium: 12.3 MB of 170.0 MB". */
export function progressText(p: SetupProgress): string {
  const what = PHASES[p.phase];
  if (p.total > 0) return `${what}: ${amount(p.done, p.phase)} of ${amount(p.total, p.phase)}`;
  if (p.done > 0) return `${what}: ${amount(p.done, p.phase)}`;
  return `${what}…`;
}

/**
 * Shown while runs cannot start because the Playwright driver or a browser is missing: says
 * what was looked for and what is missing, offers to download it (the driver, and
 * Playwright's Chromium when no browser is installed) with a progress bar and Cancel, and
 * names the command that does the same. The window re-checks when the setup ends, and the
 * panel goes once everything is there.
 */
export function FirstRunPanel({ status, setup, error, onSetup, onCancel, onRecheck }: FirstRunPanelProps) {
  const running = setup?.state === "running";
  const p = setup?.progress ?? { phase: "", done: 0, total: 0 };
  const needsBrowser = !status.chosen;
  const anyFound = status.candidates.some((c) => c.found);
  const what = [!status.driver && "the Playwright driver", needsBrowser && "Playwright's Chromium"].filter(Boolean).join(" and ");
  return (
    <section className="panel first-run" aria-labelledby="first-run-heading">
      <h2 id="first-run-heading">Set up a browser to run tasks</h2>
      <p>
        Observatory drives a Chromium-based browser through Playwright.
        {!status.driver && (
          <>
            {" "}
            The <strong>Playwright driver</strong> <Help term="driver" topic="the Playwright driver" /> is not installed yet.
          </>
        )}
        {needsBrowser && !anyFound && (
          <>
            {" "}
            No browser was found: it looked for these, in order.
          </>
        )}
        {needsBrowser && anyFound && (
          <>
            {" "}
            The browser chosen cannot be used ({status.browser_problem}); choose another in Settings, or download one. It looked for these, in order.
          </>
        )}
      </p>
      {needsBrowser && (
        <ul className="candidates" aria-label="Browsers looked for">
          {status.candidates.map((c) => (
            <li key={`${c.kind}:${c.path}`}>
              <span>{c.label}</span> <code>{c.path || "—"}</code> <span className="muted">{c.found ? "found" : `not found: ${c.note ?? "missing"}`}</span>
            </li>
          ))}
        </ul>
      )}
      <p>
        Download {what} now {needsBrowser && <Help term="playwrightChromium" topic="Playwright's Chromium" />} into your user cache folder
        {needsBrowser ? ", or install Google Chrome, Microsoft Edge or Chromium and check again" : ""}. Runs you import or open from history need
        neither. From a terminal: <code>{status.command}</code>
      </p>
      {running ? (
        <div className="setup-progress">
          <progress
            aria-label="Setup progress"
            max={p.total > 0 ? p.total : undefined}
            value={p.total > 0 ? p.done : undefined}
            aria-valuetext={progressText(p)}
          />
          <span role="status">{progressText(p)}</span>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      ) : (
        <div className="setup-actions">
          <button type="button" className="primary" onClick={onSetup}>
            Download {what}
          </button>
          <button type="button" onClick={onRecheck}>
            Check again
          </button>
          {setup?.state === "cancelled" && <span role="status">Cancelled: nothing was kept.</span>}
        </div>
      )}
      {setup?.state === "failed" && (
        <p role="alert" className="setup-error">
          The setup failed: {setup.error}
        </p>
      )}
      {error && (
        <p role="alert" className="setup-error">
          {error}
        </p>
      )}
    </section>
  );
}
