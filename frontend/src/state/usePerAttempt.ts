// What the window reads about the attempt shown, once per attempt while its run is shown: a
// long attempt's step summaries (Runs.Summaries) and an attempt's replay (Runs.Replay). An
// answer for a run no longer shown is dropped; answers for the run shown are kept, so going
// back to an attempt asks for nothing again.
import { useEffect, useRef, useState } from "react";
import { errorText } from "../api/client";

/** What is known of one attempt's answer: it, or why there is none; neither while on its way. */
export interface Answer<T> {
  value: T | undefined;
  error: string | null;
}

/** The answers of one run's attempts, by slug. */
interface Answers<T> {
  runId: string;
  bySlug: Record<string, { value?: T; error?: string }>;
}

/**
 * load(runId, slug)'s answer for the attempt shown, asked for once `when` is true; pass slug
 * null when there is nothing to ask (an attempt still running, or one whose answer came
 * another way).
 */
export function usePerAttempt<T>(runId: string | null, slug: string | null, load: (runId: string, slug: string) => Promise<T>, when = true): Answer<T> {
  const [got, setGot] = useState<Answers<T> | null>(null);
  const shownRun = useRef(runId);
  shownRun.current = runId;
  /** The attempts of the run shown whose answer has been asked for. */
  const asked = useRef<{ runId: string | null; slugs: Set<string> }>({ runId: null, slugs: new Set() });
  useEffect(() => {
    if (!runId || !slug || !when) return;
    if (asked.current.runId !== runId) asked.current = { runId, slugs: new Set() };
    if (asked.current.slugs.has(slug)) return;
    asked.current.slugs.add(slug);
    const keep = (answer: { value?: T; error?: string }) => {
      if (shownRun.current !== runId) return;
      setGot((g) => ({ runId, bySlug: { ...(g?.runId === runId ? g.bySlug : {}), [slug]: answer } }));
    };
    load(runId, slug).then(
      (value) => keep({ value }),
      (err: unknown) => keep({ error: errorText(err) }),
    );
  }, [load, runId, slug, when]);
  const answer = runId && slug && got?.runId === runId ? got.bySlug[slug] : undefined;
  return { value: answer?.value, error: answer?.error ?? null };
}
