// Comparing two runs, kept in the location hash (#/compare/A/B) so a comparison survives a
// reload and the browser's back button closes it. The comparison itself is computed in Go
// (Analysis.Compare, and Analysis.CompareRates for the A/B test over trials); this only asks for it
// and holds the answer.
import { useCallback, useEffect, useState } from "react";
import type { Api } from "../api/client";
import type { Comparison, RateComparison } from "../api/types";
import { formatCompare, parseCompare, type ComparePair } from "./route";
import { errorText } from "../api/client";

/** Whether a pair names two suite runs ("name@run-id") rather than two runs. */
export function isSuitePair(p: ComparePair): boolean {
  return p.a.includes("@") && p.b.includes("@");
}

/** A comparison asked for: the pair, and its answer or why there is none, once it came. */
export interface CompareState {
  pair: ComparePair;
  comparison: Comparison | null;
  /** The A/B test of the two runs' rates; null until it came, or when it could not be had. */
  rates: RateComparison | null;
  error: string | null;
}

/** The comparison the hash names, and how to open and close one. */
export function useCompare(api: Api) {
  const [state, setState] = useState<CompareState | null>(() => {
    const pair = parseCompare(window.location.hash);
    return pair ? { pair, comparison: null, rates: null, error: null } : null;
  });

  useEffect(() => {
    // The hash the change was to, not the one now: the window may have written the link of the
    // run it was opening meanwhile (the event comes a moment after the change), which is no
    // change of the user's; the link then names the comparison again. An event that names no
    // URL (one a script made) is read from the location.
    const follow = (e: HashChangeEvent) => {
      const to = e.newURL ? new URL(e.newURL).hash : window.location.hash;
      const pair = parseCompare(to);
      if (pair && window.location.hash !== to) window.history.replaceState(null, "", to);
      setState((s) => (pair ? (s && s.pair.a === pair.a && s.pair.b === pair.b ? s : { pair, comparison: null, rates: null, error: null }) : null));
    };
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);

  const a = state?.pair.a;
  const b = state?.pair.b;
  useEffect(() => {
    if (!a || !b) return;
    let live = true;
    // Two suite runs have no attempt-by-attempt comparison: their rates are the comparison.
    if (isSuitePair({ a, b })) {
      api.analysis.compareRates(a, b).then(
        (rates) => live && setState((s) => (s && s.pair.a === a && s.pair.b === b ? { ...s, rates, error: null } : s)),
        (err) => live && setState((s) => (s && s.pair.a === a && s.pair.b === b ? { ...s, error: errorText(err) } : s)),
      );
      return () => {
        live = false;
      };
    }
    api.analysis.compare(a, b).then(
      (comparison) => live && setState((s) => s && s.pair.a === a && s.pair.b === b ? { ...s, comparison, error: null } : s),
      (err) => live && setState((s) => s && s.pair.a === a && s.pair.b === b ? { ...s, error: errorText(err) } : s),
    );
    // The rates are a second look at the same runs: without them the comparison still shows.
    api.analysis.compareRates(a, b).then(
      (rates) => live && setState((s) => s && s.pair.a === a && s.pair.b === b ? { ...s, rates } : s),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [api, a, b]);

  /** Compares run a with run b; the hash names them. */
  const open = useCallback((a: string, b: string) => {
    window.location.hash = formatCompare({ a, b });
  }, []);

  /** Closes the comparison; the hash goes back to naming what the window shows. */
  const close = useCallback(() => {
    setState(null);
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
  }, []);

  return { state, open, close };
}
