import { useId, useState } from "react";
import type { BrowserStatus } from "../api/types";
import { Help } from "../components/Help";

/** Props of BrowserChoice. */
export interface BrowserChoiceProps {
  /** What was found; null while it is being read. */
  status: BrowserStatus | null;
  /** The chosen path (Settings.browser_path); "" chooses the first found. */
  path: string;
  onChange(path: string): void;
}

/** The select's value for a path typed by hand (never a browser's path: not absolute). */
const OTHER = "(other)";

/**
 * Settings' browser: which one runs use, every browser looked for (found or not), and a
 * choice among those found or any other path. Saved with the settings.
 */
export function BrowserChoice({ status, path, onChange }: BrowserChoiceProps) {
  const id = useId();
  const found = status?.candidates.filter((c) => c.found) ?? [];
  const [other, setOther] = useState(false);
  const typed = other || (path !== "" && !found.some((c) => c.path === path));
  return (
    <fieldset className="browser-choice">
      <legend>
        Browser <Help term="playwrightChromium" topic="Playwright's Chromium" />
      </legend>
      <p className="muted" role="status">
        {status === null
          ? "Looking for browsers…"
          : status.chosen
            ? `Runs use ${status.chosen.label}: ${status.chosen.path}` +
              (status.headless ? `; headless runs use the ${status.headless.label} beside it: ${status.headless.path}` : "")
            : `No browser is found: ${status.browser_problem ?? ""}`}
      </p>
      <div className="setting">
        <label htmlFor={`${id}-pick`}>Use</label>
        <select id={`${id}-pick`} value={typed ? OTHER : path}
          onChange={(e) => {
            setOther(e.target.value === OTHER);
            if (e.target.value !== OTHER) onChange(e.target.value);
          }}
        >
          <option value="">Automatic: the first found</option>
          {found.map((c) => (
            <option key={c.path} value={c.path}>
              {c.label} ({c.path})
            </option>
          ))}
          <option value={OTHER}>Another browser (a path)…</option>
        </select>
      </div>
      {typed && (
        <div className="setting">
          <label htmlFor={`${id}-path`}>Browser path</label>
          <input id={`${id}-path`} type="text" value={path} onChange={(e) => onChange(e.target.value)} />
        </div>
      )}
      {status && (
        <ul className="candidates" aria-label="Browsers looked for, in order">
          {status.candidates.map((c) => (
            <li key={`${c.kind}:${c.path}`}>
              {c.label} <code>{c.path || "—"}</code> <span className="muted">{c.found ? "found" : `not found (${c.note ?? "missing"})`}</span>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
