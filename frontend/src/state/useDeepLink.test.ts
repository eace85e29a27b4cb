// @vitest-environment jsdom
import { renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HASH_QUIET_MS, useDeepLink, type Shown } from "./useDeepLink";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  window.history.replaceState(null, "", window.location.pathname);
});

describe("useDeepLink", () => {
  it("writes the hash at once after a pause, and once the step stands still while it moves fast", () => {
    vi.useFakeTimers();
    const shown = (step: number): Shown => ({ runId: "run-1", loadedId: "run-1", slug: "long", step, openRun: async () => null, select: () => {} });
    const replace = vi.spyOn(window.history, "replaceState");
    const { rerender } = renderHook((s: Shown) => useDeepLink(s), { initialProps: shown(0) });
    expect(window.location.hash).toBe("#/run/run-1/attempt/long/step/1");
    for (let k = 1; k <= 20; k++) {
      vi.advanceTimersByTime(10);
      rerender(shown(k)); // a held →, one step every 10 ms
    }
    expect(replace).toHaveBeenCalledTimes(1); // the first move, after the pause since opening
    vi.advanceTimersByTime(HASH_QUIET_MS);
    expect(replace).toHaveBeenCalledTimes(2);
    expect(window.location.hash).toBe("#/run/run-1/attempt/long/step/21");
    vi.advanceTimersByTime(HASH_QUIET_MS);
    rerender(shown(22)); // after a pause: at once
    expect(window.location.hash).toBe("#/run/run-1/attempt/long/step/23");
  });
});
