import { useId, useRef } from "react";
import type { TaskInfo } from "../api/types";

/** Props of TaskPicker. */
export interface TaskPickerProps {
  tasks: TaskInfo[];
  task: TaskInfo | null;
  disabled: boolean;
  onChoose(ref: string): void;
  /** Called with a task file the user picked; the caller reads it. */
  onOpen(file: File): void;
  onForget(ref: string): void;
}

/** Whether a task is a lab's built-in one, which cannot be forgotten. */
const builtIn = (t: TaskInfo) => t.ref.startsWith("lab:");

/**
 * The task to run: the labs' tasks and the recently opened task files to pick from, a button
 * that opens a task file (YAML or JSON) and one that forgets the chosen recent file.
 */
export function TaskPicker({ tasks, task, disabled, onChoose, onOpen, onForget }: TaskPickerProps) {
  const id = useId();
  const file = useRef<HTMLInputElement>(null);
  return (
    <div className="task-picker">
      <label htmlFor={id}>Task</label>
      <select id={id} value={task?.ref ?? ""} disabled={disabled || tasks.length === 0} onChange={(e) => onChoose(e.target.value)}>
        {tasks.map((t) => (
          <option key={t.ref} value={t.ref}>
            {t.task.name} · {t.file ?? (builtIn(t) ? "lab" : "task file")}
          </option>
        ))}
      </select>
      <button type="button" onClick={() => file.current?.click()} disabled={disabled}>Open task…</button>
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
      {task && !builtIn(task) && (
        <button type="button" onClick={() => onForget(task.ref)} disabled={disabled}>Forget</button>
      )}
    </div>
  );
}
