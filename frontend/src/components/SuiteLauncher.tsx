import { useId, useState } from "react";
import type { SuiteRequest, TaskInfo } from "../api/types";

/** Props of SuiteLauncher. */
export interface SuiteLauncherProps {
  tasks: TaskInfo[];
  /** The task chosen in the window: picked to begin with. */
  task: TaskInfo | null;
  disabled: boolean;
  /** Starts the suite run; resolves to why it could not start, or null. */
  onStart(req: SuiteRequest): Promise<string | null>;
}

/** The most trials the window asks for at once (the service allows up to 1000). */
const MAX_TRIALS = 100;

/**
 * Runs trials: a menu that picks tasks (the chosen one to begin with) and how many trials of
 * each attempt, and starts them as one suite run, each task a run of its own. One task with
 * several trials is a repeated run.
 */
export function SuiteLauncher({ tasks, task, disabled, onStart }: SuiteLauncherProps) {
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<string[] | null>(null);
  const [trials, setTrials] = useState(5);
  const [name, setName] = useState("suite");
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const runnable = tasks.filter((t) => !t.missing);
  const chosen = picked ?? (task && !task.missing ? [task.ref] : []);
  const toggle = (ref: string, on: boolean) => setPicked(on ? [...chosen.filter((r) => r !== ref), ref] : chosen.filter((r) => r !== ref));
  const start = async () => {
    const order = runnable.map((t) => t.ref).filter((r) => chosen.includes(r));
    const why = await onStart({ name: name.trim() || "suite", tasks: order.map((t) => ({ task: t })), repeat: trials, config: null });
    setError(why);
    if (!why) setOpen(false);
  };
  return (
    <div className="dropdown" onKeyDown={(e) => e.key === "Escape" && setOpen(false)}>
      <button type="button" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)} disabled={disabled}>
        Trials… <span aria-hidden="true">▾</span>
      </button>
      {open && !disabled && (
        <div id={id} className="dropdown-menu suite-launcher" role="group" aria-label="Run trials">
          <fieldset>
            <legend>Tasks, one run each</legend>
            {runnable.map((t) => (
              <label key={t.ref}>
                <input type="checkbox" checked={chosen.includes(t.ref)} onChange={(e) => toggle(t.ref, e.target.checked)} /> {t.task.name}
              </label>
            ))}
          </fieldset>
          <label>
            Trials of each attempt{" "}
            <input type="number" min={1} max={MAX_TRIALS} value={trials} onChange={(e) => setTrials(Math.min(MAX_TRIALS, Math.max(1, Number(e.target.value) || 1)))} />
          </label>
          <label>
            Suite name <input type="text" value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          {error && (
            <p className="warn" role="alert">
              {error}
            </p>
          )}
          <button type="button" className="primary" disabled={chosen.length === 0} onClick={() => void start()}>
            Start {trials} trial{trials === 1 ? "" : "s"} of {chosen.length} task{chosen.length === 1 ? "" : "s"}
          </button>
        </div>
      )}
    </div>
  );
}
