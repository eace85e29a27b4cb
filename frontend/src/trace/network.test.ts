import { describe, expect, it } from "vitest";
import type { NetRequest } from "../api/types";
import { bytes, failed, matchesText, outcome, shortURL } from "./network";

const req = (r: Partial<NetRequest>): NetRequest => ({ method: "GET", url: "http://h/", resource_type: "fetch", start_ms: 0, duration_ms: 0, size: 0, ...r });

describe("network helpers", () => {
  it("calls a request failed for a network failure or a 4xx–5xx answer, never for 2xx or 3xx", () => {
    expect([200, 302, 399, 400, 404, 500].map((status) => failed(req({ status })))).toEqual([false, false, false, true, true, true]);
    expect(failed(req({ failure: "net::ERR_ABORTED" }))).toBe(true);
  });

  it("says how a request ended", () => {
    expect(outcome(req({ status: 409, status_text: "Conflict" }))).toBe("409 Conflict");
    expect(outcome(req({ failure: "net::ERR_CONNECTION_REFUSED" }))).toBe("net::ERR_CONNECTION_REFUSED");
    expect(outcome(req({}))).toBe("no response");
  });

  it("matches every word of a filter in any field, in any case", () => {
    expect(matchesText("", "x")).toBe(true);
    expect(matchesText("post 409", "POST", "http://h/api", 409)).toBe(true);
    expect(matchesText("post 500", "POST", "http://h/api", 409)).toBe(false);
  });

  it("writes sizes and URLs for people", () => {
    expect([-1, 0, 1023, 1536, 3 * 1024 * 1024].map(bytes)).toEqual(["unknown", "0 B", "1023 B", "1.5 KiB", "3.0 MiB"]);
    expect(shortURL("http://127.0.0.1:1/api/save?x=1")).toBe("/api/save?x=1");
    expect(shortURL("not a url")).toBe("not a url");
  });
});
