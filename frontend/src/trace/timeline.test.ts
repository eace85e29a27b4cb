import { describe, expect, it } from "vitest";
import { noticeNothingSaved, replay } from "../test/fixtures";
import { summaries } from "./summary";
import { buildTimeline, frameAt, lastAtOrBefore, markAt, stepAtMs } from "./timeline";

const steps = summaries(noticeNothingSaved.steps!); // starts 0, 41, 77, 102, 131; the last ends at 655
const events = noticeNothingSaved.events!; // at 40, 76, 101, 130, 631, 638, 640

describe("lastAtOrBefore", () => {
  const times = [1, 3, 5, 9];
  it.each<[number, number]>([
    [0, -1],
    [1, 0],
    [4, 1],
    [5, 2],
    [99, 3],
  ])("at %d finds position %d", (ms, want) => {
    expect(lastAtOrBefore(ms, (k) => times[k], times.length)).toBe(want);
  });
});

describe("stepAtMs and frameAt", () => {
  it.each<[number, number, number]>([
    [0, 0, 0],
    [40, 0, 1], // the dialog opened during step 1
    [41, 1, 1], // a step's start belongs to it
    [130, 3, 4],
    [5000, 4, 7], // after everything: the last step, every event
  ])("at %d ms: step %d, frame %d", (ms, step, frame) => {
    expect(stepAtMs(ms, steps)).toBe(step);
    expect(frameAt(ms, events)).toBe(frame);
  });
});

describe("buildTimeline", () => {
  const line = buildTimeline({ steps, events, frames: replay.frames, final: { gate: false, answers: 3 } });

  it("puts steps, events and the final check in time order, each step's mark indexed", () => {
    expect(line.marks.map((m) => m.kind).join(" ")).toBe("step event step event step event step event check event event event check");
    expect(line.stepMark.map((k) => line.marks[k].label)).toEqual(steps.map((s, k) => `Step ${k + 1}: ${s.description}`));
    expect(line.marks.at(-1)).toMatchObject({ kind: "check", label: "Final check: 3 oracle answers", at_ms: 655, step: 4, gate: false });
    expect(line.end_ms).toBe(655);
  });

  it("gives each mark the replay frame and the gate there; a step's is the state once it ended", () => {
    const submit = line.marks[line.stepMark[3]];
    expect(submit).toMatchObject({ at_ms: 102, step: 3, frame: 4, gate: replay.frames![4].gate.done });
    const saved = line.marks.find((m) => m.label.startsWith("#5 "))!;
    expect(saved).toMatchObject({ kind: "event", step: 4, frame: 5 });
  });

  it("says the gate is not known without frames", () => {
    const bare = buildTimeline({ steps, events });
    expect(bare.marks.every((m) => m.gate === null)).toBe(true);
  });

  it("finds the mark at a time", () => {
    expect(line.marks[markAt(76, line)].label).toBe("#2 field-changed field=title value=Spectral scan");
    expect(line.marks[markAt(100, line)].label).toBe("Step 3: Choose a room");
    expect(markAt(-5, line)).toBe(0);
  });
});
