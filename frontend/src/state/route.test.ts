import { describe, expect, it } from "vitest";
import { formatCompare, formatRoute, parseCompare, parseRoute } from "./route";

describe("routes", () => {
  it.each([
    ["#/run/20261201-0930-ab", { run: "20261201-0930-ab" }],
    ["#/run/r1/attempt/wrong-room", { run: "r1", attempt: "wrong-room" }],
    ["#/run/r1/attempt/wrong-room/step/4", { run: "r1", attempt: "wrong-room", step: 3 }],
    ["#/run/r%201/attempt/a%2Fb/step/1", { run: "r 1", attempt: "a/b", step: 0 }],
  ])("parses %s", (hash, want) => {
    expect(parseRoute(hash)).toEqual(want);
    expect(formatRoute(want)).toBe(hash);
  });

  it.each(["", "#", "#/", "#/runs/x", "#/run/", "#/run/r1/attempt/a/step/0", "#/run/r1/attempt/a/step/x"])("ignores what is not a route: %s", (hash) => {
    const r = parseRoute(hash);
    expect(r === null || r.step === undefined).toBe(true);
  });

  it("parses and writes a comparison of two runs", () => {
    expect(parseCompare("#/compare/r1/r%202")).toEqual({ a: "r1", b: "r 2" });
    expect(formatCompare({ a: "r1", b: "r 2" })).toBe("#/compare/r1/r%202");
    expect(parseRoute("#/compare/r1/r2")).toBeNull();
  });

  it.each(["", "#/compare", "#/compare/r1", "#/compare//r2", "#/run/r1"])("compares nothing for %s", (hash) => {
    expect(parseCompare(hash)).toBeNull();
  });
});
