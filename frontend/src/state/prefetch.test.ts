import { describe, expect, it } from "vitest";
import { fakeApi } from "../test/fakeApi";
import { withDeepLinkPrefetch } from "./prefetch";

describe("withDeepLinkPrefetch", () => {
  it("asks for the linked run's header and the step's block at once, and answers the first calls with them", async () => {
    const { api } = fakeApi();
    const wrapped = withDeepLinkPrefetch(api, "#/run/run-1/attempt/notice-nothing-saved/step/4");
    expect(api.history.header).toHaveBeenCalledWith("run-1");
    expect(api.history.steps).toHaveBeenCalledWith("run-1", "notice-nothing-saved", 0, 16);
    expect((await wrapped.history.header("run-1")).id).toBe("run-1");
    expect((await wrapped.history.steps("run-1", "notice-nothing-saved", 0, 5)).map((s) => s.index)).toEqual([0, 1, 2, 3, 4]);
    expect(api.history.header).toHaveBeenCalledTimes(1);
    expect(api.history.steps).toHaveBeenCalledTimes(1);
    // Every later call, or one for something else, goes through.
    await wrapped.history.header("run-1");
    await wrapped.history.steps("run-1", "saves-normally", 0, 5);
    expect(api.history.header).toHaveBeenCalledTimes(2);
    expect(api.history.steps).toHaveBeenCalledTimes(2);
  });

  it("leaves the api as it is when the hash names no run", () => {
    const { api } = fakeApi();
    expect(withDeepLinkPrefetch(api, "#/compare/a/b")).toBe(api);
    expect(withDeepLinkPrefetch(api, "")).toBe(api);
    expect(api.history.header).not.toHaveBeenCalled();
  });
});
