// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Step } from "../api/types";
import { noticeNothingSaved, savesNormally } from "../test/fixtures";
import { BLOCK, KEPT_BLOCKS, StepCache, useStepDetails, type LoadSteps, type StepSource } from "./stepDetails";

/** n whole steps, each numbered in its description, cycling through a fixture's five. */
function stepsOf(n: number, five = noticeNothingSaved.steps!): Step[] {
  return Array.from({ length: n }, (_, k) => ({ ...five[k % 5], index: k, action: { ...five[k % 5].action, description: `Action ${k + 1}` } }));
}

/** A loader whose answers the test gives, one read at a time, in any order. */
function deferredLoader(steps: Step[]) {
  const waiting: { from: number; count: number; answer(): void; fail(msg: string): void }[] = [];
  const load = vi.fn(
    (from: number, count: number) =>
      new Promise<Step[]>((resolve, reject) =>
        waiting.push({ from, count, answer: () => resolve(steps.slice(from, from + count)), fail: (msg) => reject(new Error(msg)) }),
      ),
  );
  /** Answers the read that started at from. */
  const answer = async (from: number) => {
    const k = waiting.findIndex((w) => w.from === from);
    if (k < 0) throw new Error(`no read from ${from} is waiting; waiting: ${waiting.map((w) => w.from)}`);
    const [w] = waiting.splice(k, 1);
    await act(async () => w.answer());
  };
  const fail = async (from: number, msg: string) => {
    const k = waiting.findIndex((w) => w.from === from);
    const [w] = waiting.splice(k, 1);
    await act(async () => w.fail(msg));
  };
  const asked = () => load.mock.calls.map(([from, count]) => [from, count]);
  return { load, answer, fail, asked };
}

describe("StepCache", () => {
  it("reads the chosen step's block, then the blocks beside it, each once, the last one short", async () => {
    const steps = stepsOf(40);
    const l = deferredLoader(steps);
    const cache = new StepCache(l.load, steps.length);
    cache.want(20);
    cache.want(21); // the same block, on its way
    expect(l.asked()).toEqual([[16, 16]]);
    expect(cache.get(20)).toBeUndefined();
    await l.answer(16);
    expect(cache.get(20)?.action.description).toBe("Action 21");
    cache.want(20);
    expect(l.asked()).toEqual([[16, 16], [0, 16], [32, 8]]);
  });

  it("keeps a bounded number of blocks, the one used longest ago going first", async () => {
    const steps = stepsOf(BLOCK * (KEPT_BLOCKS + 2));
    const cache = new StepCache(async (from, count) => steps.slice(from, from + count), steps.length);
    const settle = () => new Promise((r) => setTimeout(r, 0));
    for (let b = 0; b < KEPT_BLOCKS; b++) cache.want(b * BLOCK);
    await settle();
    cache.want(0); // block 0 used again: block 1 is now the one used longest ago
    cache.want(KEPT_BLOCKS * BLOCK);
    await settle();
    expect(cache.get(0)).toBeDefined();
    expect(cache.get(BLOCK)).toBeUndefined();
    expect(cache.get(KEPT_BLOCKS * BLOCK)).toBeDefined();
  });

  it("says why a block could not be read, and reads it again when it is chosen again", async () => {
    const l = deferredLoader(stepsOf(20));
    const cache = new StepCache(l.load, 20);
    cache.want(3);
    await l.fail(0, "database is locked");
    expect(cache.error(3)).toBe("database is locked");
    cache.want(3);
    await l.answer(0);
    expect(cache.error(3)).toBeNull();
    expect(cache.get(3)?.index).toBe(3);
  });
});

describe("useStepDetails", () => {
  const stored = (key: string, steps: Step[], load: LoadSteps): StepSource => ({ key, count: steps.length, load });

  it("asks for the chosen step's block, shows it once read, then reads its neighbours ahead", async () => {
    const steps = stepsOf(10_000);
    const l = deferredLoader(steps);
    const source = stored("run-1/long", steps, l.load);
    const { result, rerender } = renderHook(({ i }) => useStepDetails(source, i), { initialProps: { i: 40 } });
    expect(result.current.step).toBeUndefined();
    expect(l.asked()).toEqual([[32, 16]]);
    await l.answer(32);
    expect(result.current.step?.action.description).toBe("Action 41");
    expect(l.asked()).toEqual([[32, 16], [16, 16], [48, 16]]);
    await l.answer(48);
    rerender({ i: 48 }); // → into the block read ahead: there at once, no read waited for
    expect(result.current.step?.action.description).toBe("Action 49");
    expect(l.asked()).toContainEqual([64, 16]);
  });

  it("never shows an answer for a step chosen before in place of the one chosen now", async () => {
    const steps = stepsOf(10_000);
    const l = deferredLoader(steps);
    const source = stored("run-1/long", steps, l.load);
    const { result, rerender } = renderHook(({ i }) => useStepDetails(source, i), { initialProps: { i: 0 } });
    rerender({ i: 500 }); // End, say, before step 1 arrived
    expect(l.asked()).toEqual([[0, 16], [496, 16]]);
    await l.answer(496);
    expect(result.current.step?.action.description).toBe("Action 501");
    await l.answer(0); // the late answer for step 1
    expect(result.current.step?.action.description).toBe("Action 501");
  });

  it("ignores an answer for the attempt shown before", async () => {
    const first = stepsOf(30, noticeNothingSaved.steps!);
    const second = stepsOf(30, savesNormally.steps!);
    const a = deferredLoader(first);
    const b = deferredLoader(second);
    const { result, rerender } = renderHook(({ source }) => useStepDetails(source, 3), { initialProps: { source: stored("run-1/notice", first, a.load) } });
    rerender({ source: stored("run-1/saves", second, b.load) });
    await a.answer(0); // the first attempt's step 4 arrives after the second was chosen
    expect(result.current.step).toBeUndefined();
    await b.answer(0);
    expect(result.current.step).toEqual(second[3]);
  });

  it("uses a live attempt's steps as they are, reading nothing", () => {
    const steps = stepsOf(3);
    const { result } = renderHook(() => useStepDetails({ held: steps }, 2));
    expect(result.current).toEqual({ step: steps[2], error: null });
  });

  it("says why the chosen step could not be read", async () => {
    const steps = stepsOf(20);
    const l = deferredLoader(steps);
    const { result } = renderHook(() => useStepDetails(stored("run-1/x", steps, l.load), 5));
    await l.fail(0, "run run-1 has no attempt \"x\"");
    expect(result.current).toEqual({ step: undefined, error: 'run run-1 has no attempt "x"' });
  });
});
