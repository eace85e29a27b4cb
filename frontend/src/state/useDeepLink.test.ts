// @vitest-environment jsdom
import { renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HASH_EVERY_MS, useDeepLink, type Shown } from "./useDeepLink";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  window.history.replaceState(null, "", window.location.pathname);
});

describe("useDeepLink", () => {
  it("writes the hash at most every HASH_EVERY_MS while the step moves fast, and the last step always", () => {
    vi.useFakeTimers();
    const shown = (step: number): Shown => ({ runId: "run-1", loadedId: "run-1", slug: "long", step, openRun: async () => null, select: () => {} });
    const replace = vi.spyOn(window.history, "replaceState");
    const { rerender } = renderHook((s: Shown) => useDeepLink(s), { initialProps: shown(0) });
    expect(window.location.hash).toBe("#/run/run-1/attempt/long/step/1");
    for (let k = 1; k <= 20; k++) {
      vi.advanceTimersByTime(10);
      rerender(shown(k)); // a held →, one step every 10 ms
    }
    expect(replace).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(HASH_EVERY_MS);
    expect(replace).toHaveBeenCalledTimes(2);
    expect(window.location.hash).toBe("#/run/run-1/attempt/long/step/21");
  });
});
