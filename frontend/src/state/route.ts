// Deep links into a run: #/run/ID, #/run/ID/attempt/SLUG and #/run/ID/attempt/SLUG/step/N,
// N counting from 1 as the trace does; and to two runs compared: #/compare/A/B. Pure.

/** Where a link points. step is 0-based here. */
export interface Route {
  run: string;
  attempt?: string;
  step?: number;
}

/** The route a location hash names, or null when it names none. */
export function parseRoute(hash: string): Route | null {
  const parts = hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  if (parts[0] !== "run" || !parts[1]) return null;
  const route: Route = { run: parts[1] };
  if (parts[2] === "attempt" && parts[3]) {
    route.attempt = parts[3];
    const n = Number(parts[5]);
    if (parts[4] === "step" && Number.isInteger(n) && n >= 1) route.step = n - 1;
  }
  return route;
}

/** The location hash of a route. */
export function formatRoute(r: Route): string {
  let hash = `#/run/${encodeURIComponent(r.run)}`;
  if (r.attempt) {
    hash += `/attempt/${encodeURIComponent(r.attempt)}`;
    if (r.step !== undefined) hash += `/step/${r.step + 1}`;
  }
  return hash;
}

/** Two runs a link compares. */
export interface ComparePair {
  a: string;
  b: string;
}

/** The pair of runs a location hash compares (#/compare/A/B), or null when it names none. */
export function parseCompare(hash: string): ComparePair | null {
  const parts = hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  return parts[0] === "compare" && parts[1] && parts[2] ? { a: parts[1], b: parts[2] } : null;
}

/** The location hash comparing a pair of runs. */
export function formatCompare(p: ComparePair): string {
  return `#/compare/${encodeURIComponent(p.a)}/${encodeURIComponent(p.b)}`;
}
