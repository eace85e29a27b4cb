// What the Network, Console and Errors tabs filter and say about recorded traffic. Pure.
import type { NetRequest } from "../api/types";

/** Which requests the Network tab shows: all, the failed ones, or those answered 4xx–5xx. */
export type StatusFilter = "all" | "failed" | "http-error";

/** A request failed: it got no answer (failure text), or a 4xx or 5xx answer. */
export function failed(r: NetRequest): boolean {
  return !!r.failure || (r.status ?? 0) >= 400;
}

/** True when every word of filter (any case) appears in one of fields; an empty filter matches all. */
export function matchesText(filter: string, ...fields: (string | number | undefined)[]): boolean {
  const hay = fields.filter((f) => f !== undefined).join(" ").toLowerCase();
  return filter
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

/** The requests filter and status let through, in their recorded order. */
export function filterRequests(requests: NetRequest[], filter: string, status: StatusFilter): NetRequest[] {
  return requests.filter(
    (r) =>
      (status === "all" || (status === "failed" ? failed(r) : (r.status ?? 0) >= 400)) &&
      matchesText(filter, r.method, r.url, r.status, r.resource_type, r.failure),
  );
}

/** A request's outcome in a few words: its status, or how it failed. */
export function outcome(r: NetRequest): string {
  if (r.failure) return r.status ? `${r.status} · ${r.failure}` : r.failure;
  return r.status ? `${r.status}${r.status_text ? ` ${r.status_text}` : ""}` : "no response";
}

/** A size in bytes for people: 512 B, 3.2 KiB; "unknown" for -1. */
export function bytes(n: number): string {
  if (n < 0) return "unknown";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** The URL without its origin when it has one ("/api/save?x=1"), else as it is. */
export function shortURL(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}
