// The frames an attempt's events rebuild, for the gate's state along its timeline. An imported
// run's replays are loaded with it; for a run made here they are asked for when its attempt is
// shown. The backend computes them once (Runs.Replay); nothing here recomputes a verdict.
import { useEffect, useState } from "react";
import type { Api } from "../api/client";
import type { Frame } from "../api/types";

/**
 * The replay frames of attempt slug of run runId, or null while unknown (not asked, loading,
 * or the run could not be replayed: the timeline then says the gate is not known there).
 * Pass slug null for an attempt not finished or already replayed.
 */
export function useGateFrames(api: Api, runId: string | null, slug: string | null): Frame[] | null {
  const [got, setGot] = useState<{ key: string; frames: Frame[] | null } | null>(null);
  const key = runId && slug ? `${runId}/${slug}` : null;
  useEffect(() => {
    if (!key || !runId || !slug) return;
    let live = true;
    api.runs.replay(runId, slug).then(
      (r) => live && setGot({ key, frames: r.frames }),
      () => live && setGot({ key, frames: null }),
    );
    return () => {
      live = false;
    };
  }, [api, key, runId, slug]);
  return got && got.key === key ? got.frames : null;
}
