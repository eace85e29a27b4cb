// A suite run shown in the window, kept in the location hash (#/suite/ID) so it survives a
// reload and the browser's back button closes it. The grid and the estimates are computed in
// Go (Runs.Suite); this asks for them once, then keeps the grid current from the run events
// the window receives (see foldSuite), asking again only when one of the suite's runs starts
// or ends, when the event stream reconnects, and every SUITE_FALLBACK_MS while it goes.
import { useCallback, useEffect, useState } from "react";
import type { Api } from "../api/client";
import type { Progress, SuiteReport, SuiteRequest } from "../api/types";
import { errorText } from "../api/client";
import { foldSuite } from "./suite";

/** The suite run a location hash names (#/suite/ID), or null when it names none. */
export function parseSuite(hash: string): string | null {
  const parts = hash.replace(/^#\/?/, "").split("/");
  return parts[0] === "suite" && parts[1] ? decodeURIComponent(parts[1]) : null;
}

/** The location hash of suite run id. */
export function formatSuite(id: string): string {
  return `#/suite/${encodeURIComponent(id)}`;
}

/** A suite run asked for: its report once it came, or why there is none, and whether it goes. */
export interface SuiteState {
  id: string;
  report: SuiteReport | null;
  going: boolean;
  error: string | null;
}

/** How often a going suite run is read again whole, in ms, should an event go missing: its
 * grid follows the run events between reads. */
export const SUITE_FALLBACK_MS = 10_000;

/** The suite run the hash names, and how to start one, open one and close it. */
export function useSuite(api: Api) {
  const [id, setId] = useState<string | null>(() => parseSuite(window.location.hash));
  const [state, setState] = useState<SuiteState | null>(null);

  useEffect(() => {
    // The hash the change was to, not the one now: another hook may have replaced it since
    // (the deep link naming the run under the grid), which is no change of the user's. An
    // event that names no URL (one a script made) is read from the location.
    const follow = (e: HashChangeEvent) => setId(parseSuite(e.newURL ? new URL(e.newURL).hash : window.location.hash));
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);

  useEffect(() => {
    if (!id) {
      setState(null);
      return;
    }
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The report on screen, mirrored here so that events fold into the newest one.
    let shown: SuiteReport | null = null;
    // A read under way, whether another was asked for meanwhile, and the events it may miss.
    let reading = false;
    let again = false;
    let missed: Progress[] = [];
    const show = (s: SuiteState) => {
      shown = s.report;
      setState(s);
    };
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(read, SUITE_FALLBACK_MS);
    };
    const read = async () => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      missed = [];
      try {
        const [report, going] = await Promise.all([api.runs.suite(id), api.runs.going()]);
        if (!live) return;
        const on = going.suite_run === id;
        show({ id, report: missed.reduce((r, p) => foldSuite(r, p).report, report), going: on, error: null });
        if (on) later();
      } catch (err) {
        if (!live) return;
        // A suite run just started may have no run recorded yet: its first events, or the
        // fallback, ask again while it goes.
        const going = await api.runs.going().catch(() => null);
        if (!live) return;
        if (going?.suite_run === id) {
          later();
          setState((s) => s ?? { id, report: null, going: true, error: null });
        } else show({ id, report: null, going: false, error: errorText(err) });
      } finally {
        reading = false;
        if (again && live) {
          again = false;
          void read();
        }
      }
    };
    const offProgress = api.onProgress((p) => {
      if (!live) return;
      if (reading) missed.push(p);
      if (!shown) {
        // Not read yet (the suite's first run was not recorded when it was asked for): an
        // attempt's start or end says there is something to read now.
        if (p.kind === "run-started" || p.kind === "attempt-started" || p.kind === "attempt-finished") void read();
        return;
      }
      const f = foldSuite(shown, p);
      if (f.report !== shown) {
        shown = f.report;
        setState((s) => (s && s.id === id ? { ...s, report: f.report } : s));
      }
      if (f.reread) void read();
    });
    const offConnect = api.onConnect(() => void read());
    setState((s) => (s && s.id === id ? s : { id, report: null, going: false, error: null }));
    void read();
    return () => {
      live = false;
      clearTimeout(timer);
      offProgress();
      offConnect();
    };
  }, [api, id]);

  /** Shows suite run id. */
  const open = useCallback((id: string) => {
    window.location.hash = formatSuite(id);
  }, []);

  /** Closes the suite; the hash goes back to naming what the window shows. */
  const close = useCallback(() => {
    setId(null);
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
  }, []);

  /** Starts a suite run and shows it; the error, if it could not start, is returned. */
  const start = useCallback(
    async (req: SuiteRequest): Promise<string | null> => {
      try {
        open(await api.runs.startSuite(req));
        return null;
      } catch (err) {
        return errorText(err);
      }
    },
    [api, open],
  );

  return { state, open, close, start };
}
