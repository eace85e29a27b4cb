import { useId } from "react";
import type { Settings } from "../api/types";

/** What the settings let task files reach beyond their own folder and origins. */
export type Trust = Pick<Settings, "allow_paths" | "allow_env" | "allow_link_local">;

/** Props of TrustSection. */
export interface TrustSectionProps {
  trust: Trust;
  onChange(t: Trust): void;
}

/** lines splits a textarea's text into its non-empty trimmed lines. */
function lines(text: string): string[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
}

/**
 * What task files may reach, in the settings (docs/security.md): folders besides a task
 * file's own, environment variables (names, or patterns with * that never match a secret-looking
 * name), and link-local or cloud-metadata hosts. A task file itself can widen none of them.
 */
export function TrustSection({ trust, onChange }: TrustSectionProps) {
  const id = useId();
  return (
    <fieldset className="trust">
      <legend>What task files may reach</legend>
      <div className="setting">
        <label htmlFor={`${id}-paths`}>Folders besides the task file's own (one a line)</label>
        <textarea
          id={`${id}-paths`}
          rows={2}
          value={(trust.allow_paths ?? []).join("\n")}
          onChange={(e) => onChange({ ...trust, allow_paths: lines(e.target.value) })}
        />
      </div>
      <div className="setting">
        <label htmlFor={`${id}-env`}>Environment variables (one a line; APP_* never allows a secret-looking name)</label>
        <textarea
          id={`${id}-env`}
          rows={2}
          value={(trust.allow_env ?? []).join("\n")}
          onChange={(e) => onChange({ ...trust, allow_env: lines(e.target.value) })}
        />
      </div>
      <label>
        <input
          type="checkbox"
          checked={trust.allow_link_local ?? false}
          onChange={(e) => onChange({ ...trust, allow_link_local: e.target.checked })}
        />
        Link-local and cloud-metadata hosts (169.254.169.254, metadata.*)
      </label>
    </fieldset>
  );
}
