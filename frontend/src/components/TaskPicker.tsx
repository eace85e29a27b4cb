import { useId, useRef } from "react";
import type { TaskInfo } from "../api/types";

/** Props of TaskPicker. */
export interface TaskPickerProps {
  tasks: TaskInfo[];
  task: TaskInfo | null;
  disabled: boolean;
  /** True in a browser, where a task file is read through a file input; the desktop opens its native dialog. */
  fileInput: boolean;
  onChoose(ref: string): void;
  /** Called in a browser with a task file the user picked; the caller reads it. */
  onOpen(file: File): void;
  /** Called in the desktop, to pick a task file in the native dialog. */
  onOpenDialog(): void;
  onForget(ref: string): void;
}

/** Whether a task is a lab's built-in one, which cannot be forgotten. */
const builtIn = (t: TaskInfo) => t.ref.startsWith("lab:");

/** What the list says a task comes from: a lab, its file, and whether that file is missing. */
function origin(t: TaskInfo): string {
  if (builtIn(t)) return "lab";
  return `${t.file ?? "task file"}${t.missing ? " · missing" : ""}`;
}

/**
 * The task to run: the labs' tasks and the recently opened task files to pick from (a file
 * that is gone stays listed as missing, so it can be forgotten), a button that opens a task
 * file (YAML or JSON: the native dialog in the desktop, a file input in a browser) and one
 * that forgets the chosen recent file.
 */
export function TaskPicker({ tasks, task, disabled, fileInput, onChoose, onOpen, onOpenDialog, onForget }: TaskPickerProps) {
  const id = useId();
  const file = useRef<HTMLInputElement>(null);
  return (
    <div className="task-picker">
      <label htmlFor={id}>Task</label>
      <select id={id} value={task?.ref ?? ""} disabled={disabled || tasks.length === 0} onChange={(e) => onChoose(e.target.value)}>
        {tasks.map((t) => (
          <option key={t.ref} value={t.ref} title={t.missing ?? t.path}>
            {t.task.name} · {origin(t)}
          </option>
        ))}
      </select>
      <button type="button" onClick={() => (fileInput ? file.current?.click() : onOpenDialog())} disabled={disabled}>Open task…</button>
      {fileInput && (
        <input
          ref={file}
          type="file"
          accept=".yaml,.yml,.json,application/json,application/yaml,text/yaml"
          hidden
          data-testid="task-file"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = "";
            if (f) onOpen(f);
          }}
        />
      )}
      {task && !builtIn(task) && (
        <button type="button" onClick={() => onForget(task.ref)} disabled={disabled}>Forget</button>
      )}
    </div>
  );
}
