import { describe, expect, it } from "vitest";
import { seekTime, stepAt } from "./videoSync";

const steps = [
  { start_ms: 100, duration_ms: 400 }, // [0.1 s, 0.5 s)
  { start_ms: 500, duration_ms: 250 }, // [0.5 s, 0.75 s)
  { start_ms: 1200, duration_ms: 0 }, // empty: never playing
  { start_ms: 2000, duration_ms: 1000 }, // [2 s, 3 s)
];

describe("seekTime", () => {
  it.each([
    [0, 0],
    [1234, 1.234],
    [-5, 0],
  ])("start_ms %d seeks to %d s", (ms, want) => {
    expect(seekTime({ start_ms: ms })).toBe(want);
  });
});

describe("stepAt", () => {
  it.each<[number, number | null]>([
    [0, null], // before the first step
    [0.1, 0], // a step's start belongs to it
    [0.4999, 0],
    [0.5, 1], // its end belongs to the next one
    [0.75, null], // between steps
    [1.2, null], // a step that took no time is never the playing one
    [2.5, 3],
    [3, null], // after the last step
  ])("at %d s plays step %s", (time, want) => {
    expect(stepAt(time, steps)).toBe(want);
  });

  it("finds nothing in an attempt without steps", () => {
    expect(stepAt(1, [])).toBeNull();
  });

  it("round-trips: seeking to a step that took time lands in that step", () => {
    steps.forEach((s, k) => {
      if (s.duration_ms > 0) expect(stepAt(seekTime(s), steps)).toBe(k);
    });
  });
});
