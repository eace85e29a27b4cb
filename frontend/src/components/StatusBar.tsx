import type { Message } from "../state/useWorkbench";

/** Props of StatusBar. */
export interface StatusBarProps {
  /**
   * The running attempt's position (of is 0 when the run does not know how many it tries: an
   * agent's session), its title, and the process running it when not this window; null when idle.
   */
  progress: { at: number; of: number; title: string; elsewhere?: string } | null;
  message: Message | null;
  /** How many errors the error panel lists. */
  errors: number;
  /** What a model planner is waiting for, if it is. */
  waiting: string | null;
}

/**
 * One line at the foot of the window, always there, so nothing above it moves as a run
 * progresses or a message comes: the run's progress, then the latest message, or how many
 * errors the error panel lists (in full, there).
 */
export function StatusBar({ progress, message, errors, waiting }: StatusBarProps) {
  const error = errors > 0 ? `${errors === 1 ? "An error" : `${errors} errors`}: see the panel at the top.` : null;
  return (
    <footer className="status-bar">
      {progress && (
        <div className="progress" data-testid="progress">
          <span className="num">
            attempt {progress.at}
            {progress.of > 0 && ` of ${progress.of}`}
          </span>
          {progress.of > 0 && <progress max={progress.of} value={progress.at - 1} aria-label="Run progress" />}
          <span className="progress-title">{progress.title}</span>
          {progress.elsewhere && <span className="elsewhere">started elsewhere ({progress.elsewhere})</span>}
          {waiting && <span className="waiting">{waiting}</span>}
        </div>
      )}
      <p className="status-text" role="status">{!error && message ? message.text : ""}</p>
      <p className="status-error">{error ?? ""}</p>
    </footer>
  );
}
