import { describe, expect, it } from "vitest";
import { formatRoute, parseRoute } from "./route";

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
});
