import "./ModelTurns.css";

/** Props of ModelWaitNote. */
export interface ModelWaitNoteProps {
  /** What each waiting attempt says, by slug (LiveState.waiting). */
  waiting: Record<string, string>;
  titleOf(slug: string): string;
}

/**
 * Says, live, which attempts are waiting for a model because every model refused (the run
 * goes on by itself once one answers, within its time limit); nothing when none waits.
 */
export function ModelWaitNote({ waiting, titleOf }: ModelWaitNoteProps) {
  const slugs = Object.keys(waiting);
  return (
    <div role="status" className="model-wait">
      {slugs.map((slug) => (
        <p key={slug}>
          <strong>{titleOf(slug)}</strong>: {waiting[slug]}
        </p>
      ))}
    </div>
  );
}
