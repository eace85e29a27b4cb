// The replay of the attempt shown: its frames rebuilt from its events, with the gate's state
// along its timeline, and its verdicts recomputed (Runs.Replay), which an imported run's
// Replay tab shows. Replaying reads the attempt whole, so it is asked for only once the
// attempt's chosen step is drawn, never on the way to it, and once per attempt while its run
// is shown. Nothing here recomputes a verdict.
import { useEffect, useRef, useState } from "react";
import type { Api } from "../api/client";
import type { Replay } from "../api/types";

/** The replays of one run's attempts, by slug; null for one that could not be replayed. */
interface Replays {
  runId: string;
  bySlug: Record<string, Replay | null>;
}

/**
 * The replay of attempt slug of run runId, or null while unknown (not asked yet, on its way,
 * or the run could not be replayed: the timeline then says the gate is not known there). It
 * is asked for once ready is true; pass slug null for an attempt still running.
 */
export function useReplay(api: Api, runId: string | null, slug: string | null, ready: boolean): Replay | null {
  const [got, setGot] = useState<Replays | null>(null);
  /** The attempts of the run shown whose replay has been asked for. */
  const asked = useRef<{ runId: string | null; slugs: Set<string> }>({ runId: null, slugs: new Set() });
  useEffect(() => {
    if (!runId || !slug || !ready) return;
    if (asked.current.runId !== runId) asked.current = { runId, slugs: new Set() };
    if (asked.current.slugs.has(slug)) return;
    asked.current.slugs.add(slug);
    const keep = (r: Replay | null) =>
      setGot((g) => (g && g.runId === runId ? { runId, bySlug: { ...g.bySlug, [slug]: r } } : { runId, bySlug: { [slug]: r } }));
    api.runs.replay(runId, slug).then(keep, () => keep(null));
  }, [api, runId, slug, ready]);
  return runId && slug && got?.runId === runId ? (got.bySlug[slug] ?? null) : null;
}
