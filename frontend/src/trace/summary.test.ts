import { describe, expect, it } from "vitest";
import type { Step } from "../api/types";
import { noticeNothingSaved, savesNormally } from "../test/fixtures";
import { modelDone } from "../test/modelTurns";
import { decisiveStep, headerOf, summaries, summarize } from "./summary";

describe("summarize", () => {
  const [open, fill] = noticeNothingSaved.steps!;

  it("keeps what the step list and the timeline show, as agent.Step.Summary does", () => {
    expect(summarize(fill)).toEqual({
      index: 1,
      description: "Fill task title",
      kind: "fill",
      target: "textbox[Reservation title]",
      value: "Spectral scan",
      class: "prepare",
      admission: "allow",
      start_ms: fill.start_ms,
      duration_ms: fill.duration_ms,
      failed: false,
      failed_requests: undefined,
      unchanged: undefined,
      shot: undefined,
      turns: 0,
      said_done: false,
    });
  });

  it("stands a step for its screenshot after, else before, and marks an error", () => {
    const shot = { ...open, before: { ...open.before, screenshot: "b.jpg" }, error: "no match" };
    expect(summarize(shot)).toMatchObject({ shot: "b.jpg", failed: true });
    expect(summarize({ ...shot, after: { ...shot.after, screenshot: "a.jpg" } }).shot).toBe("a.jpg");
  });

  it("counts a model's turns and whether its done call became the action", () => {
    const last = modelDone.steps!.at(-1)!;
    expect(summarize(last)).toMatchObject({ turns: last.model_turns!.length, said_done: true });
  });

  it("summarises each whole step once, and an attempt's header once", () => {
    const steps = noticeNothingSaved.steps!;
    expect(summaries(steps)[2]).toBe(summaries(steps)[2]);
    expect(headerOf(noticeNothingSaved)).toBe(headerOf(noticeNothingSaved));
    expect(headerOf(noticeNothingSaved).steps).toHaveLength(5);
  });
});

describe("decisiveStep", () => {
  /** The fixture's steps with the submit's page changed (it read "Saving…"), and edits. */
  const edited = (edit: (s: Step, k: number) => Step = (s) => s) =>
    headerOf({ ...noticeNothingSaved, steps: noticeNothingSaved.steps!.map((s, k) => edit(k === 3 ? { ...s, distance: 0.1 } : s, k)) });
  it("opens a completed attempt on its first step, one that did not on the step where the gate was judged", () => {
    expect(decisiveStep(headerOf(savesNormally))).toBe(0);
    expect(decisiveStep(edited())).toBe(noticeNothingSaved.steps!.length - 1);
  });
  it("opens on the first step that failed before the gate was asked", () => {
    expect(decisiveStep(edited((s, k) => (k === 1 || k === 4 ? { ...s, error: "boom" } : s)))).toBe(1);
    expect(decisiveStep(edited((s, k) => (k === 4 ? { ...s, error: "gate" } : s)))).toBe(4);
  });
  it("opens on the step whose request the server refused, not the verify after it", () => {
    const refused = { method: "POST", url: "/api/reservations", resource_type: "fetch", status: 409, start_ms: 110, duration_ms: 30, size: 40 };
    expect(decisiveStep(edited((s, k) => (k === 3 ? { ...s, requests: [refused] } : s)))).toBe(3);
    expect(summarize({ ...noticeNothingSaved.steps![3], requests: [refused, { ...refused, status: 200 }] }).failed_requests).toBe(1);
  });
  it("opens on a blind click: the last action that changed nothing seen", () => {
    expect(decisiveStep(headerOf(noticeNothingSaved))).toBe(3);
    expect(summarize(noticeNothingSaved.steps![3]).unchanged).toBe(true);
  });
  it("opens a long attempt, its summaries not in its header, on its last step", () => {
    expect(decisiveStep({ ...headerOf(noticeNothingSaved), steps: null, step_count: 400 })).toBe(399);
  });
});
