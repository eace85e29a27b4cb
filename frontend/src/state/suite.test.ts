// @vitest-environment jsdom
import { act, renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Attempt, Progress, SuiteReport } from "../api/types";
import { fakeApi } from "../test/fakeApi";
import { noticeNothingSaved, savesNormally } from "../test/fixtures";
import { wrongChecks } from "../verdicts";
import { baseSlug, foldSuite } from "./suite";
import { formatSuite, useSuite } from "./useSuite";

const id = "smoke@20261203T121500-abcdef";

/** A suite run read while its booking run goes: saves-normally's first trial has ended, its second runs. */
function going(): SuiteReport {
  return {
    id,
    name: "smoke",
    runs: [{ id: "run-b", task: "booking", created: "", status: "running" }],
    trials: 2,
    rows: [
      { key: "booking/saves-normally", task: "booking", attempt: "saves-normally", title: "Saves normally", cells: [
        { run: "run-b", slug: "saves-normally.t1", trial: 1, terminal: "completed" },
        { run: "run-b", slug: "saves-normally.t2", trial: 2, terminal: "" },
      ] },
    ],
    estimates: { by: "attempt", k: 2, slices: [], overall: {} as SuiteReport["estimates"]["overall"] },
  };
}

/** The trial of a that ends as slug, trial n. */
function trial(a: Attempt, slug: string, n: number): Attempt {
  return { ...a, attempt: `${slug}.t${n}`, trial: n };
}

const ended = (runId: string, a: Attempt): Progress => ({ run_id: runId, kind: "attempt-finished", slug: a.attempt, attempt: a, seq: 1 });

describe("foldSuite", () => {
  it("fills the cell of a trial that ended, and adds the row of an attempt the report had not seen", () => {
    let f = foldSuite(going(), ended("run-b", trial(noticeNothingSaved, "saves-normally", 2)));
    expect(f.reread).toBe(false);
    expect(f.report.rows[0].cells[1]).toEqual({ run: "run-b", slug: "saves-normally.t2", trial: 2, terminal: "failed", wrong: wrongChecks(noticeNothingSaved.verdicts) });
    expect(f.report.rows[0].cells[1].wrong?.length).toBeGreaterThan(0);

    f = foldSuite(f.report, ended("run-b", trial(savesNormally, "notice-nothing-saved", 2)));
    f = foldSuite(f.report, ended("run-b", trial(savesNormally, "notice-nothing-saved", 1)));
    const added = f.report.rows[1];
    expect(added.key).toBe("booking/notice-nothing-saved");
    expect(added.title).toBe("Saves normally");
    expect(added.cells.map((c) => [c.trial, c.terminal])).toEqual([[1, "completed"], [2, "completed"]]);
    expect(f.report.trials).toBe(2);
  });

  it("asks for the report again when a run starts or one of its runs ends, and ignores other runs' attempts", () => {
    const r = going();
    expect(foldSuite(r, { run_id: "run-c", kind: "run-started", seq: 1 }).reread).toBe(true);
    expect(foldSuite(r, { run_id: "run-b", kind: "run-started", seq: 1 }).reread).toBe(false);
    expect(foldSuite(r, { run_id: "run-b", kind: "run-finished", status: "finished", seq: 2 }).reread).toBe(true);
    expect(foldSuite(r, { run_id: "other", kind: "run-finished", status: "finished", seq: 2 }).reread).toBe(false);
    const elsewhere = foldSuite(r, ended("other", trial(noticeNothingSaved, "saves-normally", 2)));
    expect(elsewhere).toEqual({ report: r, reread: false });
    expect(foldSuite(r, { run_id: "run-b", kind: "step", seq: 3 }).report).toBe(r);
  });

  it("names a trial's attempt as agent.BaseSlug does", () => {
    expect(baseSlug("saves-normally.t3", 3)).toBe("saves-normally");
    expect(baseSlug("saves-normally", 0)).toBe("saves-normally");
    expect(baseSlug("v1.t2", 3)).toBe("v1.t2");
  });
});

describe("useSuite", () => {
  afterEach(() => {
    window.location.hash = "";
  });

  it("reads a going suite run once, then follows its run events, reading it again only when a run ends", async () => {
    window.location.hash = formatSuite(id);
    const { api, emit } = fakeApi();
    const suite = vi.mocked(api.runs.suite);
    suite.mockResolvedValue(going());
    vi.mocked(api.runs.going).mockResolvedValue({ id: "run-b", suite_run: id, planned: [], events: [] });
    const { result } = renderHook(() => useSuite(api));
    await waitFor(() => expect(result.current.state?.report?.rows[0].cells[1].terminal).toBe(""));
    expect(result.current.state?.going).toBe(true);

    act(() => {
      emit({ run_id: "run-b", kind: "step", slug: "saves-normally.t2", seq: 5 });
      emit(ended("run-b", trial(savesNormally, "saves-normally", 2)));
    });
    expect(result.current.state?.report?.rows[0].cells[1].terminal).toBe("completed");
    expect(suite).toHaveBeenCalledTimes(1);

    const done: SuiteReport = { ...going(), runs: [{ id: "run-b", task: "booking", created: "", status: "finished" }] };
    suite.mockResolvedValue(done);
    act(() => emit({ run_id: "run-b", kind: "run-finished", status: "finished", seq: 9 }));
    await waitFor(() => expect(result.current.state?.report?.runs[0].status).toBe("finished"));
    expect(suite).toHaveBeenCalledTimes(2);
  });
});
