// What a deep link (#/run/ID/attempt/SLUG/step/N) opens is asked for as the window starts,
// before React first renders: the run's header and the block of steps the link points into
// go out together while the page boots, rather than one after the other once it has, and the
// step's screenshot is fetched as soon as the block names it. The first call for each is
// answered with what was asked; every other call goes through. A long attempt's summaries
// are not asked for here: received and read on the main thread, they would hold up the step;
// the window asks for them once the step is drawn.
import type { Api } from "../api/client";
import type { RunHeader, Step } from "../api/types";
import { mediaURL } from "../media";
import { parseRoute } from "./route";
import { BLOCK } from "./stepDetails";

/** api, with the header and the step block the location hash names already asked for. */
export function withDeepLinkPrefetch(api: Api, hash: string): Api {
  const route = parseRoute(hash);
  if (!route) return api;
  let header: Promise<RunHeader> | null = api.history.header(route.run);
  const from = Math.floor((route.step ?? 0) / BLOCK) * BLOCK;
  let steps: Promise<Step[]> | null = route.attempt ? api.history.steps(route.run, route.attempt, from, BLOCK) : null;
  // Whoever takes an answer hears its failure; one never taken fails silently.
  header.catch(() => {});
  steps?.then((got) => preload(route.run, got[(route.step ?? 0) - from]), () => {});
  return {
    ...api,
    history: {
      ...api.history,
      header: (id) => {
        const h = header;
        if (!h || id !== route.run) return api.history.header(id);
        header = null;
        return h;
      },
      // The window asks with the run's full id, of which the link may name a prefix, and for
      // fewer than a block at an attempt's end.
      steps: (id, slug, at, count) => {
        const s = steps;
        if (!s || !id.startsWith(route.run) || slug !== route.attempt || at !== from || count > BLOCK) return api.history.steps(id, slug, at, count);
        steps = null;
        return s.then((got) => got.slice(0, count));
      },
    },
  };
}

/** Fetches (and decodes) the screenshot the trace opens on, step s's after, so it is there when drawn. */
function preload(id: string, s: Step | undefined) {
  const shot = s?.after.screenshot;
  if (!shot || typeof Image === "undefined") return;
  const img = new Image();
  img.src = mediaURL(id, shot);
  img.decode?.().catch(() => {}); // one that fails to load shows its own error where it is drawn
}
