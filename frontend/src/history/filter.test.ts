import { describe, expect, it } from "vitest";
import type { RunSummary } from "../api/types";
import { ALL, queryRuns } from "./filter";

const run = (id: string, over: Partial<RunSummary>): RunSummary => ({
  id,
  task: "booking",
  created: "2026-12-01T10:00:00Z",
  added: "2026-12-01T10:00:00Z",
  status: "finished",
  source: "live",
  attempts: 8,
  completed: 3,
  wrong: 0,
  ...over,
});

const runs = [
  run("a", { created: "2026-12-01T08:00:00Z", added: "2026-12-01T08:00:00Z" }),
  run("b", { task: "close-issue", wrong: 2, created: "2026-12-01T09:00:00Z", added: "2026-12-01T09:00:00Z" }),
  run("c", { status: "imported", source: "shared.json", created: "2025-01-01T00:00:00Z", added: "2026-12-01T11:00:00Z" }),
  run("d", { status: "cancelled", created: "2026-12-01T10:00:00Z", added: "2026-12-01T10:00:00Z" }),
];
const ids = (q: Partial<typeof ALL>) => queryRuns(runs, { ...ALL, ...q }).map((r) => r.id);

describe("queryRuns", () => {
  it("sorts by when a run was added, or by when it started", () => {
    expect(ids({})).toEqual(["c", "d", "b", "a"]);
    expect(ids({ sort: "created" })).toEqual(["d", "b", "a", "c"]);
  });

  it("searches id, task and source, case-insensitively", () => {
    expect(ids({ text: "SHARED" })).toEqual(["c"]);
    expect(ids({ text: "issue" })).toEqual(["b"]);
    expect(ids({ text: "d" })).toEqual(["c", "d"]); // c's source "shared.json" has a d too
  });

  it("filters by status, wrong attempts, task and origin", () => {
    expect(ids({ status: "cancelled" })).toEqual(["d"]);
    expect(ids({ wrongOnly: true })).toEqual(["b"]);
    expect(ids({ task: "booking" })).toEqual(["c", "d", "a"]);
    expect(ids({ origin: "imported" })).toEqual(["c"]);
    expect(ids({ origin: "live", task: "booking" })).toEqual(["d", "a"]);
  });
});
