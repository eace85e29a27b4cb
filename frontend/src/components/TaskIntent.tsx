import type { TaskInfo } from "../api/types";

/** Props of TaskIntent. */
export interface TaskIntentProps {
  /** The chosen task; null until the tasks are read. */
  task: TaskInfo | null;
}

/**
 * What the chosen task asks for, in one line cut to its room, whole in its tooltip with the
 * address it starts at; in red, why a remembered task file cannot be read.
 */
export function TaskIntent({ task }: TaskIntentProps) {
  if (task?.missing) {
    return (
      <p className="intent missing" title={task.path}>
        {task.missing}
      </p>
    );
  }
  const t = task?.task;
  return (
    <p className="intent" title={t ? `${t.intent}\nStarts at ${t.start_url}` : undefined}>
      {t ? t.intent : "Loading the tasks…"}
    </p>
  );
}
