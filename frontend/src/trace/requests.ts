// The whole attempt's network table: what kind a request is, and how the table sorts. Pure.
import type { AttemptRequest, NetRequest } from "../api/types";
import { failed, matchesText } from "./network";

/** The kinds of request the table filters by, as the browser's developer tools group them. */
export const KINDS = [
  { id: "all", label: "All" },
  { id: "fetch", label: "Fetch/XHR" },
  { id: "document", label: "Document" },
  { id: "script", label: "Script" },
  { id: "style", label: "Style" },
  { id: "image", label: "Image" },
  { id: "other", label: "Other" },
] as const;

/** One of KINDS' ids. */
export type Kind = (typeof KINDS)[number]["id"];

/** The kind of a request from its resource type (document, script, fetch, xhr, stylesheet, …). */
export function kindOf(r: NetRequest): Exclude<Kind, "all"> {
  switch (r.resource_type) {
    case "fetch":
    case "xhr":
      return "fetch";
    case "document":
    case "script":
    case "image":
      return r.resource_type;
    case "stylesheet":
      return "style";
    default:
      return "other";
  }
}

/** The columns the table sorts by. */
export type SortKey = "step" | "method" | "status" | "kind" | "url" | "start" | "duration" | "size";

/** How the table is sorted: by a column, either way, failed requests first or not. */
export interface Sort {
  key: SortKey;
  descending: boolean;
  failedFirst: boolean;
}

/** A request's value in a column, for comparing; null when unknown (no answer, a size of -1), which sorts last either way. */
function value(r: AttemptRequest, key: SortKey): number | string | null {
  switch (key) {
    case "step":
      return r.step;
    case "method":
      return r.method;
    case "status":
      return r.status ?? null;
    case "kind":
      return kindOf(r);
    case "url":
      return r.url;
    case "start":
      return r.start_ms;
    case "duration":
      return r.duration_ms;
    case "size":
      return r.size < 0 ? null : r.size;
  }
}

/**
 * The requests of kind whose words hold every word of text, sorted: failed ones first when
 * asked, then by the column (unknown values last), then in their recorded order.
 */
export function tableRows(requests: AttemptRequest[], text: string, kind: Kind, sort: Sort): AttemptRequest[] {
  const rows = requests
    .map((r, order) => ({ r, order }))
    .filter(({ r }) => (kind === "all" || kindOf(r) === kind) && matchesText(text, r.method, r.url, r.status, r.resource_type, r.failure, `step ${r.step + 1}`));
  const sign = sort.descending ? -1 : 1;
  rows.sort((a, b) => {
    if (sort.failedFirst && failed(a.r) !== failed(b.r)) return failed(a.r) ? -1 : 1;
    const x = value(a.r, sort.key);
    const y = value(b.r, sort.key);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * sign;
    }
    return a.order - b.order;
  });
  return rows.map(({ r }) => r);
}
