// Keeps the location hash and what the window shows together: a deep link
// (#/run/ID/attempt/SLUG/step/N) opens that run at that attempt and step, on load, on reload
// and when the hash changes; and the hash follows what the user selects, without adding
// browser history entries. Writing the location costs the browser a few milliseconds (many
// more when the machine is busy), so while the selection moves fast (a held →) the hash waits
// until it has stood still for HASH_QUIET_MS; a selection after a pause is written at once.
import { useEffect, useRef } from "react";
import type { RunHeader } from "../api/types";
import { formatRoute, parseRoute, type Route } from "./route";

/** How long the selection stands still before the hash follows a quick succession of moves, in ms. */
export const HASH_QUIET_MS = 250;

/** What the window shows now and how to change it. */
export interface Shown {
  /** The id of the run on screen, if any (a run going elsewhere, followed live, when it is that). */
  runId: string | null;
  /** The loaded run's id: set once openRun has loaded it. */
  loadedId: string | null;
  slug: string | null;
  step: number;
  /** Opens a stored run; resolves to it, or to null when it could not be opened. */
  openRun(id: string): Promise<RunHeader | null>;
  /** Selects an attempt of the shown run at a step. */
  select(slug: string | null, step: number): void;
  /** Tells that a link named the run on screen: it holds the view as an opened link does. */
  hold?(run: string): void;
  /** True while the hash names something else (a comparison): it is left alone. */
  paused?: boolean;
}

/** Follows and writes the location hash; see the module comment. */
export function useDeepLink(s: Shown) {
  /** A route waiting for its run to load. */
  const pending = useRef<Route | null>(null);
  const latest = useRef(s);
  latest.current = s;

  useEffect(() => {
    const follow = () => {
      const r = parseRoute(window.location.hash);
      if (!r) return;
      const now = latest.current;
      if (now.runId && now.runId.startsWith(r.run)) {
        now.hold?.(r.run);
        now.select(r.attempt ?? now.slug, r.step ?? 0);
        return;
      }
      pending.current = r;
      now.openRun(r.run).then((run) => {
        if (pending.current !== r) return;
        if (!run) pending.current = null;
        // The run may have been loaded already, under a live run shown over it: its id did
        // not change, so the effect below does not select what the link names.
        else if (r.attempt) latest.current.select(r.attempt, r.step ?? 0);
      });
    };
    follow();
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);

  // Once the linked run is loaded, select what the link names; the route stays pending until
  // the selection shows it (below), so nothing in between is written to the hash.
  const { loadedId, select } = s;
  useEffect(() => {
    const r = pending.current;
    if (!r || !loadedId || !loadedId.startsWith(r.run)) return;
    if (r.attempt) select(r.attempt, r.step ?? 0);
  }, [loadedId, select]);

  /** When the selection last moved, and the write waiting for it to stand still. */
  const moved = useRef(-Infinity);
  const waiting = useRef<ReturnType<typeof setTimeout> | null>(null);
  const { runId, slug, step, paused } = s;
  useEffect(() => {
    const linked = pending.current;
    if (paused) return;
    if (linked) {
      if (!runId?.startsWith(linked.run) || (linked.attempt && slug !== linked.attempt)) return;
      pending.current = null; // the link is shown: the hash names it now, the run's id in full
    }
    const hash = runId ? formatRoute({ run: runId, attempt: slug ?? undefined, step: slug ? step : undefined }) : "";
    const write = () => {
      waiting.current = null;
      if (window.location.hash !== hash) window.history.replaceState(null, "", hash || window.location.pathname + window.location.search);
    };
    if (waiting.current) clearTimeout(waiting.current);
    waiting.current = null;
    const now = performance.now();
    const quick = !linked && now - moved.current < HASH_QUIET_MS;
    if (!linked) moved.current = now; // showing the link is no move of the user's
    if (window.location.hash === hash) return;
    if (quick) waiting.current = setTimeout(write, HASH_QUIET_MS);
    else write();
  }, [runId, slug, step, paused]);
  useEffect(() => () => void (waiting.current && clearTimeout(waiting.current)), []);
}
