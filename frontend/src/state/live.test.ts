import { describe, expect, it } from "vitest";
import type { Progress, RunStatus, RunSummary } from "../api/types";
import { noticeNothingSaved, savesNormally } from "../test/fixtures";
import { applyProgress, currentSlug, foldAll, inFlight, missedFinish, resumeLive, startLive } from "./live";

const fold = (events: Progress[]) => foldAll(startLive(["saves-normally", "notice-nothing-saved"]), events);

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

  it("keeps every attempt in flight with its newest screencast frame, and drops a finished one's", () => {
    const s = fold([
      { run_id: "r1", kind: "attempt-started", slug: "saves-normally", endpoint: "local Chromium" },
      { run_id: "r1", kind: "attempt-started", slug: "notice-nothing-saved", endpoint: "local Chromium" },
      { run_id: "r1", kind: "screencast", slug: "saves-normally", live: { jpeg: "AAA", at: "2026-12-01T06:00:00Z" } },
      { run_id: "r1", kind: "screencast", slug: "notice-nothing-saved", live: { jpeg: "BBB", at: "2026-12-01T06:00:00Z" } },
      { run_id: "r1", kind: "screencast", slug: "saves-normally", live: { jpeg: "CCC", at: "2026-12-01T06:00:01Z" } },
    ]);
    expect(inFlight(s)).toEqual(["saves-normally", "notice-nothing-saved"]);
    expect(s.screens).toEqual({ "saves-normally": "data:image/jpeg;base64,CCC", "notice-nothing-saved": "data:image/jpeg;base64,BBB" });
    const done = [
      { run_id: "r1", kind: "attempt-finished", attempt: savesNormally } as Progress,
      { run_id: "r1", kind: "screencast", slug: "saves-normally", live: { jpeg: "late", at: "2026-12-01T06:00:02Z" } } as Progress,
      { run_id: "r1", kind: "screencast", slug: "notice-nothing-saved", message: "this browser cannot stream its pages live" } as Progress,
    ].reduce(applyProgress, s);
    expect(inFlight(done)).toEqual(["notice-nothing-saved"]);
    expect(done.screens).toEqual({ "notice-nothing-saved": "data:image/jpeg;base64,BBB" });
    expect(done.unwatchable).toEqual({ "notice-nothing-saved": "this browser cannot stream its pages live" });
  });

  it("gives a finished attempt the video and trace saved after its verdict", () => {
    const { video: _v, trace: _t, ...verdictOnly } = savesNormally;
    const s = fold([
      { run_id: "r1", kind: "attempt-started", slug: "saves-normally" },
      { run_id: "r1", kind: "attempt-finished", attempt: verdictOnly },
      { run_id: "r1", kind: "media-saved", slug: "notice-nothing-saved", media: { video: "not-finished.webm" } },
    ]);
    expect(s.finished["saves-normally"].video).toBeUndefined();
    expect(s.finished["notice-nothing-saved"]).toBeUndefined();
    const saved = applyProgress(s, { run_id: "r1", kind: "media-saved", slug: "saves-normally", media: { video: "saves-normally.webm", trace: "saves-normally.trace.zip" } });
    expect(saved.finished["saves-normally"]).toMatchObject({ terminal: savesNormally.terminal, video: "saves-normally.webm", trace: "saves-normally.trace.zip" });
  });

  it("files finished attempts, ends the run and ignores other runs' events", () => {
    const s = fold([
      { run_id: "r1", kind: "attempt-started", slug: "saves-normally" },
      { run_id: "r1", kind: "attempt-finished", attempt: savesNormally },
      { run_id: "r0", kind: "attempt-finished", attempt: noticeNothingSaved },
      { run_id: "r1", kind: "error", slug: "saves-normally", message: "closing the page: gone" },
      { run_id: "r1", kind: "error", message: "browser crashed" },
      { run_id: "r1", kind: "run-finished", status: "cancelled" },
    ]);
    expect(Object.keys(s.finished)).toEqual(["saves-normally"]);
    expect(s.status).toBe("cancelled");
    expect(s.errors).toEqual([{ message: "closing the page: gone", slug: "saves-normally" }, { message: "browser crashed", slug: undefined }]);
    expect(currentSlug(s)).toBeNull();
  });

  it("follows an attempt waiting for a model until a model answers or the attempt ends", () => {
    const wait: Progress = { run_id: "r1", kind: "model-wait", slug: "saves-normally", waiting: true, message: "waiting for a model: every model refused" };
    const start: Progress[] = [{ run_id: "r1", kind: "attempt-started", slug: "saves-normally" }, wait];
    expect(fold(start).waiting).toEqual({ "saves-normally": "waiting for a model: every model refused" });
    expect(fold([...start, { ...wait, waiting: false, message: "a model answers again" }]).waiting).toEqual({});
    expect(fold([...start, { run_id: "r1", kind: "attempt-finished", attempt: savesNormally }]).waiting).toEqual({});
  });
});

describe("missedFinish", () => {
  const summary = (id: string, status: RunStatus): RunSummary => ({
    id,
    task: "booking",
    created: "2025-01-01T00:00:00Z",
    added: "2025-01-01T00:00:00Z",
    status,
    source: "live",
    attempts: 1,
    completed: 1,
    wrong: 0,
  });
  const running = fold([{ run_id: "r1", kind: "run-started" }]);

  it.each<[string, RunSummary[], Progress | null]>([
    ["the run ended while the stream was down", [summary("r0", "finished"), summary("r1", "cancelled")], { run_id: "r1", kind: "run-finished", status: "cancelled" }],
    ["the run is still going", [summary("r1", "running")], null],
    ["the history does not list the run yet", [summary("r0", "finished")], null],
  ])("when %s", (_, history, want) => {
    expect(missedFinish(running, history)).toEqual(want);
  });

  it("finishes the live view through applyProgress", () => {
    const p = missedFinish(running, [summary("r1", "finished")])!;
    expect(applyProgress(running, p).status).toBe("finished");
  });

  it("misses nothing before the run has an id or after it finished", () => {
    const history = [summary("r1", "finished")];
    expect(missedFinish(startLive(["saves-normally"]), history)).toBeNull();
    expect(missedFinish(applyProgress(running, { run_id: "r1", kind: "run-finished", status: "finished" }), history)).toBeNull();
  });
});

describe("resumeLive", () => {
  it("rebuilds a going run from its events and folds each numbered event once", () => {
    const s = resumeLive({
      id: "r1",
      planned: ["saves-normally", "notice-nothing-saved"],
      events: [
        { run_id: "r1", kind: "run-started", total: 2, seq: 1 },
        { run_id: "r1", kind: "attempt-started", slug: "saves-normally", index: 1, total: 2, seq: 2 },
        { run_id: "r1", kind: "attempt-finished", slug: "saves-normally", attempt: savesNormally, seq: 7 },
        { run_id: "r1", kind: "attempt-started", slug: "notice-nothing-saved", index: 2, total: 2, seq: 8 },
      ],
    });
    expect(s.runId).toBe("r1");
    expect(s.planned).toEqual(["saves-normally", "notice-nothing-saved"]);
    expect(s.finished["saves-normally"]).toBe(savesNormally);
    expect(inFlight(s)).toEqual(["notice-nothing-saved"]);
    expect(s.seen).toBe(8);
    const again = applyProgress(s, { run_id: "r1", kind: "attempt-started", slug: "notice-nothing-saved", seq: 8 });
    expect(again).toBe(s);
    const next = applyProgress(s, { run_id: "r1", kind: "step", slug: "notice-nothing-saved", step: noticeNothingSaved.steps![0], seq: 9 });
    expect(next.steps["notice-nothing-saved"]).toHaveLength(1);
    expect(applyProgress(next, { run_id: "r1", kind: "screencast", slug: "notice-nothing-saved", live: { jpeg: "A", at: "2026-12-01T06:00:00Z" } }).seen).toBe(9);
    expect(s.elsewhere).toBeUndefined();
  });

  it("keeps the process that runs a run started elsewhere, whose attempts are not planned ahead", () => {
    const s = resumeLive({
      id: "r2",
      elsewhere: "observatory mcp, pid 4242",
      planned: null as unknown as string[],
      events: [
        { run_id: "r2", kind: "run-started", seq: 1 },
        { run_id: "r2", kind: "attempt-started", slug: "guarded", index: 1, seq: 2 },
      ],
    });
    expect(s.elsewhere).toBe("observatory mcp, pid 4242");
    expect(s.planned).toEqual([]);
    expect(inFlight(s)).toEqual(["guarded"]);
  });
});
