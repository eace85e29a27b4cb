import { useId } from "react";
import type { MetricsBy } from "../api/types";

/** The ways the history's attempts can be grouped, with their labels. */
export const SLICINGS: { by: MetricsBy; label: string }[] = [
  { by: "task", label: "Task" },
  { by: "lab", label: "Lab" },
  { by: "attempt", label: "Attempt" },
  { by: "planner", label: "Planner or model" },
  { by: "risk", label: "Risk class" },
];

/** A labelled choice of how to group the attempts (the metrics' and the calibration's). */
export function SliceSelect({ label, value, onChange }: { label: string; value: MetricsBy; onChange(by: MetricsBy): void }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label} </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as MetricsBy)}>
        {SLICINGS.map((s) => (
          <option key={s.by} value={s.by}>
            {s.label}
          </option>
        ))}
      </select>
    </>
  );
}
