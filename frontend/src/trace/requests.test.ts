import { describe, expect, it } from "vitest";
import type { AttemptRequest } from "../api/types";
import { kindOf, tableRows, type Sort } from "./requests";

const req = (r: Partial<AttemptRequest>): AttemptRequest => ({ step: 0, method: "GET", url: "http://h/", resource_type: "fetch", start_ms: 0, duration_ms: 0, size: 0, ...r });

const all: AttemptRequest[] = [
  req({ step: 0, url: "http://h/", resource_type: "document", status: 200, size: 900, start_ms: 5 }),
  req({ step: 1, url: "http://h/app.js", resource_type: "script", status: 200, size: 4000, start_ms: 10 }),
  req({ step: 3, url: "http://h/api/save", method: "POST", status: 204, size: -1, start_ms: 700 }),
  req({ step: 3, url: "http://h/api/save", method: "POST", status: 409, size: 30, start_ms: 650 }),
  req({ step: 4, url: "http://h/a.css", resource_type: "stylesheet", failure: "net::ERR_ABORTED", size: -1, start_ms: 800 }),
];
const by = (key: Sort["key"], descending = false, failedFirst = false): Sort => ({ key, descending, failedFirst });
const urls = (rows: AttemptRequest[]) => rows.map((r) => `${r.status ?? "-"} ${r.url.replace("http://h", "")}`);

describe("the attempt's network table", () => {
  it("groups resource types as developer tools do", () => {
    expect(["fetch", "xhr", "document", "script", "stylesheet", "image", "font", "websocket"].map((t) => kindOf(req({ resource_type: t })))).toEqual([
      "fetch", "fetch", "document", "script", "style", "image", "other", "other",
    ]);
  });

  it("keeps the recorded order unsorted, and puts failed requests first when asked", () => {
    expect(urls(tableRows(all, "", "all", by("step")))).toEqual(["200 /", "200 /app.js", "204 /api/save", "409 /api/save", "- /a.css"]);
    expect(urls(tableRows(all, "", "all", by("step", false, true)))).toEqual(["409 /api/save", "- /a.css", "200 /", "200 /app.js", "204 /api/save"]);
  });

  it("sorts by a column either way, unknown sizes and statuses last both ways", () => {
    expect(urls(tableRows(all, "", "all", by("size")))).toEqual(["409 /api/save", "200 /", "200 /app.js", "204 /api/save", "- /a.css"]);
    expect(urls(tableRows(all, "", "all", by("size", true)))).toEqual(["200 /app.js", "200 /", "409 /api/save", "204 /api/save", "- /a.css"]);
    expect(urls(tableRows(all, "", "all", by("status", true)))).toEqual(["409 /api/save", "204 /api/save", "200 /", "200 /app.js", "- /a.css"]);
    expect(urls(tableRows(all, "", "all", by("start")))).toEqual(["200 /", "200 /app.js", "409 /api/save", "204 /api/save", "- /a.css"]);
  });

  it("filters by kind and by words, a step by its number", () => {
    expect(urls(tableRows(all, "", "fetch", by("step")))).toEqual(["204 /api/save", "409 /api/save"]);
    expect(urls(tableRows(all, "", "style", by("step")))).toEqual(["- /a.css"]);
    expect(urls(tableRows(all, "post 409", "all", by("step")))).toEqual(["409 /api/save"]);
    expect(urls(tableRows(all, "step 5", "all", by("step")))).toEqual(["- /a.css"]);
  });
});
