import { describe, expect, it } from "vitest";
import type { Progress } from "../api/types";
import { noticeNothingSaved, savesNormally } from "../test/fixtures";
import { applyProgress, currentSlug, startLive } from "./live";

const fold = (events: Progress[]) => events.reduce(applyProgress, startLive(["saves-normally", "notice-nothing-saved"]));

describe("applyProgress", () => {
  it("adopts the run id and follows attempts, steps, checks and frames", () => {
    const s = fold([
      { run_id: "r1", kind: "run-started" },
      { run_id: "r1", kind: "attempt-started", slug: "saves-normally", index: 1, total: 2 },
      { run_id: "r1", kind: "step", slug: "saves-normally", step: savesNormally.steps![0], events: savesNormally.events!.slice(0, 1) },
      { run_id: "r1", kind: "step", slug: "saves-normally", step: savesNormally.steps![1], events: savesNormally.events!.slice(1, 2) },
      { run_id: "r1", kind: "check", slug: "saves-normally", check: { gate: savesNormally.verdicts.gate } },
      { run_id: "r1", kind: "frame", slug: "saves-normally", frame: "frames/3.png" },
    ]);
    expect(s.position).toEqual({ index: 1, total: 2 });
    expect(s.events["saves-normally"].map((e) => e.type)).toEqual(["dialog-opened", "field-changed"]);
    expect(s.runId).toBe("r1");
    expect(currentSlug(s)).toBe("saves-normally");
    expect(s.steps["saves-normally"]).toHaveLength(2);
    expect(s.checks["saves-normally"].gate.done).toBe(true);
    expect(s.frames).toEqual({ "saves-normally": "frames/3.png" });
  });

  it("files finished attempts, ends the run and ignores other runs' events", () => {
    const s = fold([
      { run_id: "r1", kind: "attempt-started", slug: "saves-normally" },
      { run_id: "r1", kind: "attempt-finished", attempt: savesNormally },
      { run_id: "r0", kind: "attempt-finished", attempt: noticeNothingSaved },
      { run_id: "r1", kind: "error", message: "browser crashed" },
      { run_id: "r1", kind: "run-finished", status: "cancelled" },
    ]);
    expect(Object.keys(s.finished)).toEqual(["saves-normally"]);
    expect(s.status).toBe("cancelled");
    expect(s.error).toBe("browser crashed");
    expect(currentSlug(s)).toBeNull();
  });
});
