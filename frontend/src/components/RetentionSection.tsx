import { useId } from "react";
import type { Retention } from "../api/types";
import { Help } from "./Help";

/** Props of RetentionSection. */
export interface RetentionSectionProps {
  retention: Retention;
  onChange(r: Retention): void;
}

/** The retention's limits, and what the inputs mean. */
const LIMITS: { key: keyof Retention; label: string; max: number }[] = [
  { key: "keep_last", label: "Keep the last (runs)", max: 1_000_000 },
  { key: "keep_days", label: "Keep runs newer than (days)", max: 36_500 },
];

/**
 * The history's retention in the settings: keep the last N runs and/or the runs newer than D
 * days. Empty is off (the default); the backend applies it after each run and at start.
 */
export function RetentionSection({ retention, onChange }: RetentionSectionProps) {
  const id = useId();
  const set = (key: keyof Retention, value: string, n: number) => {
    const next = { ...retention };
    if (value === "" || !(n > 0)) delete next[key];
    else next[key] = Math.floor(n);
    onChange(next);
  };
  const on = (retention.keep_last ?? 0) > 0 || (retention.keep_days ?? 0) > 0;
  return (
    <fieldset className="retention">
      <legend>
        History retention <Help term="retention" topic="retention" />
      </legend>
      {LIMITS.map((l) => (
        <div className="setting" key={l.key}>
          <label htmlFor={`${id}-${l.key}`}>{l.label}</label>
          <input
            id={`${id}-${l.key}`}
            type="number"
            min={1}
            max={l.max}
            placeholder="no limit"
            value={retention[l.key] ?? ""}
            onChange={(e) => set(l.key, e.target.value, e.target.valueAsNumber)}
          />
        </div>
      ))}
      <p className="muted" role="status">
        {on ? "Older runs are deleted with their media after each run and at start." : "Off: every run is kept."}
      </p>
    </fieldset>
  );
}
