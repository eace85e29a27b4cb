// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { App } from "./App";
import { ApiError } from "./api/client";
import { HISTORY_POLL_MS } from "./state/useWorkbench";
import type { GoingRun, Progress, StepSummary } from "./api/types";
import { fakeApi, runHeader } from "./test/fakeApi";
import { issueTaskInfo, lab, noticeNothingSaved, run, savesNormally } from "./test/fixtures";
import { headerOf } from "./trace/summary";

describe("App", () => {
  it("lists the lab's attempts with empty cells before any run", async () => {
    const { api } = fakeApi();
    render(<App api={api} />);
    expect(await screen.findByText('Reserve "Spectral scan" in room "north".')).toBeTruthy();
    const row = screen.getByRole("row", { name: "Save refused" });
    expect(within(row).getAllByRole("cell").map((c) => c.textContent)).toEqual(["", "", "", "", "", "", "▶"]);
  });

  it("runs all, follows progress events and loads the finished run", async () => {
    const { api, emit } = fakeApi();
    render(<App api={api} />);
    await act(async () => {}); // the lab and settings have loaded, as before a user's click
    fireEvent.click(screen.getByRole("button", { name: "Run all" }));
    expect(api.runs.start).toHaveBeenCalledWith({ task: "lab:booking", attempts: [], config: {} });
    await act(async () => {
      emit({ run_id: "run-1", kind: "run-started" });
      emit({ run_id: "run-1", kind: "attempt-started", slug: "saves-normally" });
      emit({ run_id: "run-1", kind: "step", slug: "saves-normally", step: savesNormally.steps![0] });
      emit({ run_id: "run-1", kind: "check", slug: "saves-normally", check: { gate: savesNormally.verdicts.gate } });
    });
    expect(screen.getByTestId("progress").textContent).toContain("attempt 1 of 3");
    expect(screen.getByTestId("step-heading").textContent).toBe("Step 1 of 1: Open reservation dialog");
    await act(async () => emit({ run_id: "run-1", kind: "step", slug: "saves-normally", step: savesNormally.steps![1] }));
    expect(screen.getByTestId("step-heading").textContent).toBe("Step 2 of 2: Fill task title");
    fireEvent.click(screen.getByRole("button", { name: "Previous step" }));
    await act(async () => emit({ run_id: "run-1", kind: "step", slug: "saves-normally", step: savesNormally.steps![2] }));
    expect(screen.getByTestId("step-heading").textContent).toBe("Step 1 of 3: Open reservation dialog");
    await act(async () => emit({ run_id: "run-1", kind: "run-finished", status: "finished" }));
    expect(api.history.header).toHaveBeenCalledWith("run-1");
    expect(within(screen.getByRole("row", { name: "Totals" })).getAllByRole("cell")[1].textContent).toBe("wrong: 1 of 2");
  });

  it("selects an attempt on click and runs it only from its ▶, with the changed settings as the override", async () => {
    const { api } = fakeApi();
    vi.mocked(api.settings.get).mockResolvedValue({
      config: { wait: "fixed", budget: 3 }, headed: false, browser_path: "", video: false, screenshots: false, trace: false,
    });
    render(<App api={api} />);
    await act(async () => {});
    fireEvent.click(screen.getByRole("row", { name: "Save refused" }));
    expect(screen.getByRole("row", { name: "Save refused" }).getAttribute("aria-current")).toBe("true");
    expect(api.runs.start).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Run Save refused" }));
    expect(api.runs.start).toHaveBeenCalledWith({ task: "lab:booking", attempts: ["save-refused"], config: { wait: "fixed", budget: 3 } });
  });

  it("re-runs the shown attempt from the trace header, not by selecting it", async () => {
    const { api } = fakeApi();
    vi.mocked(api.history.list).mockResolvedValue([
      { id: "run-1", task: "booking", created: "2026-11-30T05:00:00Z", added: "2026-11-30T05:00:00Z", status: "finished", source: "live", attempts: 2, completed: 1, wrong: 1 },
    ]);
    render(<App api={api} />);
    const history = await screen.findByRole("navigation", { name: "Run history" });
    await act(async () => fireEvent.click(await within(history).findByRole("button", { name: /finished/ })));
    fireEvent.click(screen.getByRole("row", { name: "Notice shown, nothing saved" }));
    expect(screen.getByRole("region", { name: "Trace" })).toBeTruthy();
    expect(api.runs.start).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Run again" }));
    expect(api.runs.start).toHaveBeenCalledWith({ task: "lab:booking", attempts: ["notice-nothing-saved"], config: {} });
  });

  it("gives way on a short window only while a trace is shown below the table", async () => {
    const { api } = fakeApi();
    vi.mocked(api.history.list).mockResolvedValue([
      { id: "run-1", task: "booking", created: "2026-11-30T05:00:00Z", added: "2026-11-30T05:00:00Z", status: "finished", source: "live", attempts: 2, completed: 1, wrong: 1 },
    ]);
    const height = window.innerHeight;
    window.innerHeight = 720;
    try {
      render(<App api={api} />);
      const rows = () => (screen.getByRole("main") as HTMLElement).style.gridTemplateRows;
      await act(async () => {});
      expect(rows()).toBe("fit-content(330px) auto minmax(0, 1fr)"); // no trace: every row of the table, at most 330 px
      const history = await screen.findByRole("navigation", { name: "Run history" });
      await act(async () => fireEvent.click(await within(history).findByRole("button", { name: /finished/ })));
      fireEvent.click(screen.getByRole("row", { name: "Notice shown, nothing saved" }));
      expect(screen.getByRole("region", { name: "Trace" })).toBeTruthy();
      expect(rows()).toBe("fit-content(60px) auto minmax(0, 1fr)"); // the trace needs the room: folded to the selected row
      fireEvent.keyDown(document.body, { key: "a" });
      expect(rows()).toBe("fit-content(250px) auto minmax(0, 1fr)"); // unfolded, three rows at least
      fireEvent.click(screen.getByRole("button", { name: "Fold to this attempt (A)" }));
      expect(rows()).toBe("fit-content(60px) auto minmax(0, 1fr)");
    } finally {
      window.innerHeight = height;
    }
  });

  it("imports a file, replays it and states the disagreement plainly", async () => {
    const { api } = fakeApi();
    render(<App api={api} />);
    const file = new File(['{"schema":"observatory.run/v1"}'], "run.json", { type: "application/json" });
    await act(async () => fireEvent.change(screen.getByTestId("import-file"), { target: { files: [file] } }));
    expect(api.files.upload).toHaveBeenCalledWith(file);
    expect(api.history.replay).toHaveBeenCalledWith("run-2", "notice-nothing-saved");
    expect(screen.getByTestId("disagreements").textContent).toContain(
      "Notice shown, nothing saved, completion gate: the file says done, replay says not done.",
    );
    expect(screen.getByRole("row", { name: "Notice shown, nothing saved" }).getAttribute("aria-current")).toBe("true");
    expect(screen.getByRole("slider", { name: "Replay frame" })).toBeTruthy();
  });

  it("shows an import's disagreements only with the run it stored", async () => {
    const { api } = fakeApi();
    vi.mocked(api.history.list).mockResolvedValue([
      { id: "run-1", task: "booking", created: "2026-11-30T05:00:00Z", added: "2026-11-30T05:00:00Z", status: "finished", source: "live", attempts: 2, completed: 1, wrong: 1 },
    ]);
    render(<App api={api} />);
    const file = new File(["{}"], "run.json", { type: "application/json" });
    await act(async () => fireEvent.change(screen.getByTestId("import-file"), { target: { files: [file] } }));
    expect(screen.getByTestId("disagreements")).toBeTruthy();
    const history = screen.getByRole("navigation", { name: "Run history" });
    await act(async () => fireEvent.click(await within(history).findByRole("button", { name: /^run-1/ })));
    expect(api.history.header).toHaveBeenLastCalledWith("run-1");
    expect(screen.queryByTestId("disagreements")).toBeNull();
  });

  it("never lets a reset run's late finish take over the next run", async () => {
    const { api, emit } = fakeApi();
    render(<App api={api} />);
    await act(async () => {});
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Run all" })));
    await act(async () => emit({ run_id: "run-1", kind: "run-started" }));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Reset" })));
    vi.mocked(api.runs.start).mockResolvedValueOnce("run-3");
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Run all" }));
      emit({ run_id: "run-1", kind: "run-finished", status: "cancelled" }); // before Start answers
    });
    expect(api.history.header).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Stop" })).toHaveProperty("disabled", false);
  });

  it("shows a run that was going when the window opened, and loads it when it ends", async () => {
    const { api, emit } = fakeApi();
    vi.mocked(api.runs.going).mockResolvedValue({
      id: "run-1",
      planned: ["saves-normally", "notice-nothing-saved"],
      events: [
        { run_id: "run-1", kind: "run-started", total: 2, seq: 1 },
        { run_id: "run-1", kind: "attempt-started", slug: "saves-normally", index: 1, total: 2, seq: 2 },
        { run_id: "run-1", kind: "step", slug: "saves-normally", step: savesNormally.steps![0], seq: 3 },
      ],
    });
    render(<App api={api} />);
    // an event sent after Going answered on the server, delivered before its answer, counts once
    emit({ run_id: "run-1", kind: "step", slug: "saves-normally", step: savesNormally.steps![0], seq: 3 });
    emit({ run_id: "run-1", kind: "step", slug: "saves-normally", step: savesNormally.steps![1], seq: 4 });
    await act(async () => {});
    expect(screen.getByRole("button", { name: "Stop" })).toHaveProperty("disabled", false);
    expect(screen.getByRole("button", { name: "Run all" })).toHaveProperty("disabled", true);
    expect(screen.getByTestId("progress").textContent).toContain("attempt 1 of 2");
    expect(screen.getByTestId("live-saves-normally").textContent).toContain(`step 2: ${savesNormally.steps![1].action.description}`);
    await act(async () => emit({ run_id: "run-1", kind: "run-finished", status: "finished", seq: 5 }));
    expect(api.history.header).toHaveBeenCalledWith("run-1");
    expect(screen.getByRole("button", { name: "Stop" })).toHaveProperty("disabled", true);
  });

  it("finishes a run whose run-finished event was lost while the event stream reconnected", async () => {
    const { api, emit, reconnect } = fakeApi();
    render(<App api={api} />);
    await act(async () => {}); // the lab and settings have loaded, as before a user's click
    fireEvent.click(screen.getByRole("button", { name: "Run all" }));
    await act(async () => {
      emit({ run_id: "run-1", kind: "run-started" });
      emit({ run_id: "run-1", kind: "attempt-started", slug: "saves-normally", index: 1, total: 3 });
    });
    expect(screen.getByRole("button", { name: "Stop" })).toHaveProperty("disabled", false);
    vi.mocked(api.history.list).mockResolvedValue([
      { id: "run-1", task: "booking", created: "2025-01-01T00:00:00Z", added: "2025-01-01T00:00:00Z", status: "finished", source: "live", attempts: 3, completed: 1, wrong: 1 },
    ]);
    vi.mocked(api.history.header).mockClear();
    await act(async () => reconnect());
    expect(api.history.header).toHaveBeenCalledWith("run-1");
    expect(screen.getByRole("button", { name: "Stop" })).toHaveProperty("disabled", true);
    expect(screen.queryByTestId("progress")).toBeNull();
    expect(within(screen.getByRole("row", { name: "Totals" })).getAllByRole("cell")[1].textContent).toBe("wrong: 1 of 2");
  });

  it.each([
    ["Export run file", "run"],
    ["Export bundle", "bundle"],
    ["Export report", "report"],
  ] as const)("offers %s under Export", async (choice, format) => {
    const { api, emit } = fakeApi();
    URL.createObjectURL = vi.fn().mockReturnValue("blob:x");
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    render(<App api={api} />);
    await act(async () => {}); // the lab and settings have loaded, as before a user's click
    fireEvent.click(screen.getByRole("button", { name: "Run all" }));
    await act(async () => emit({ run_id: "run-1", kind: "run-finished", status: "finished" }));
    expect(screen.queryByRole("button", { name: choice })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Export" }));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: choice })));
    if (format === "bundle") expect(api.files.bundle).toHaveBeenCalledWith("run-1");
    else expect(api.files.export).toHaveBeenCalledWith(format, "run-1", "");
    expect(click).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("button", { name: choice })).toBeNull();
    click.mockRestore();
  });
});

describe("App with task files", () => {
  it("opens a task file from the file input, reads it and shows the task's own columns", async () => {
    const { api } = fakeApi();
    render(<App api={api} />);
    await screen.findByText('Reserve "Spectral scan" in room "north".');
    const file = new File(["name: close-issue\n"], "close-issue.yaml", { type: "application/yaml" });
    await act(async () => fireEvent.change(screen.getByTestId("task-file"), { target: { files: [file] } }));
    expect(api.tasks.load).toHaveBeenCalledWith("close-issue.yaml", "name: close-issue\n");
    expect(screen.getByText("Close issue #7.")).toBeTruthy();
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toEqual([
      "Attempt", "Issue closed in the database", "“Saved” banner", "Completion gate", "Terminal", "Why", "Run",
    ]);
    expect((within(screen.getByRole("banner")).getByLabelText("Task") as HTMLSelectElement).value).toBe("file:3fa9c0de");
    fireEvent.click(screen.getByRole("button", { name: "Run all" }));
    expect(api.runs.start).toHaveBeenCalledWith({ task: "file:3fa9c0de", attempts: [], config: {} });
  });

  it("asks before a run of a task file that reads environment variables the user has not allowed", async () => {
    const { api } = fakeApi();
    const env = [{ name: "TRACKER_TOKEN", fields: ["success[0].http.headers.Authorization"], secret: true }];
    vi.mocked(api.tasks.load).mockResolvedValue({ ...issueTaskInfo, env });
    const confirm = vi.spyOn(window, "confirm").mockReturnValueOnce(false).mockReturnValueOnce(true);
    render(<App api={api} />);
    await screen.findByText('Reserve "Spectral scan" in room "north".');
    const file = new File(["name: close-issue\n"], "close-issue.yaml", { type: "application/yaml" });
    await act(async () => fireEvent.change(screen.getByTestId("task-file"), { target: { files: [file] } }));
    fireEvent.click(screen.getByRole("button", { name: "Run all" }));
    expect(confirm.mock.calls[0][0]).toContain("• TRACKER_TOKEN (success[0].http.headers.Authorization): its name looks secret");
    expect(api.runs.start).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Run all" }));
    expect(api.runs.start).toHaveBeenCalledWith({ task: "file:3fa9c0de", attempts: [], config: {}, allow_env: ["TRACKER_TOKEN"] });
    confirm.mockRestore();
  });

  it("opens a task file dropped on the window, and forgets it", async () => {
    const { api } = fakeApi();
    render(<App api={api} />);
    await screen.findByText('Reserve "Spectral scan" in room "north".');
    const file = new File(['{"name":"close-issue"}'], "close-issue.json", { type: "application/json" });
    const dataTransfer = { types: ["Files"], files: [file] };
    await act(async () => {
      window.dispatchEvent(Object.assign(new Event("dragenter"), { dataTransfer }));
    });
    expect(screen.getByText("Drop a task file (YAML or JSON) to open it")).toBeTruthy();
    await act(async () => {
      window.dispatchEvent(Object.assign(new Event("drop", { cancelable: true }), { dataTransfer }));
    });
    expect(api.tasks.load).toHaveBeenCalledWith("close-issue.json", '{"name":"close-issue"}');
    expect(screen.queryByText("Drop a task file (YAML or JSON) to open it")).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Forget" })));
    expect(api.tasks.forget).toHaveBeenCalledWith("file:3fa9c0de");
    expect((within(screen.getByRole("banner")).getByLabelText("Task") as HTMLSelectElement).value).toBe("lab:booking");
  });

  it("opens a task file through the native dialog in the desktop", async () => {
    const { api } = fakeApi();
    render(<App api={{ ...api, kind: "wails" }} />);
    await screen.findByText('Reserve "Spectral scan" in room "north".');
    expect(screen.queryByTestId("task-file")).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Open task…" })));
    expect(api.tasks.openDialog).toHaveBeenCalledTimes(1);
    expect(api.tasks.load).not.toHaveBeenCalled();
    expect(screen.getByText("Close issue #7.")).toBeTruthy();
    expect((within(screen.getByRole("banner")).getByLabelText("Task") as HTMLSelectElement).value).toBe("file:3fa9c0de");
  });

  it("lists a recent task file that is gone, says why, and does not run it", async () => {
    const { api } = fakeApi();
    const gone = { ...issueTaskInfo, ref: "file:0badf00d", file: "gone.yaml", missing: "/home/me/gone.yaml is missing: it was moved or deleted since it was opened", attempts: [], plan: [] };
    vi.mocked(api.tasks.list).mockResolvedValue([lab, gone]);
    render(<App api={api} />);
    await screen.findByText('Reserve "Spectral scan" in room "north".');
    fireEvent.change(within(screen.getByRole("banner")).getByLabelText("Task"), { target: { value: "file:0badf00d" } });
    expect(screen.getByText(gone.missing)).toBeTruthy();
    expect((screen.getByRole("button", { name: "Run all" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("says why a task file was refused", async () => {
    const { api } = fakeApi();
    vi.mocked(api.tasks.load).mockRejectedValue(new ApiError("invalid", "success[2].expr: undeclared reference to 'bdy'", "success[2].expr"));
    render(<App api={api} />);
    const file = new File(["x"], "bad.yaml");
    await act(async () => fireEvent.change(screen.getByTestId("task-file"), { target: { files: [file] } }));
    const panel = screen.getByRole("alert", { name: "Errors" });
    expect(within(panel).getByRole("listitem").textContent).toBe("invalid input Could not open bad.yaml: success[2].expr: undeclared reference to 'bdy'");
    expect(screen.getByText("An error: see the panel at the top.")).toBeTruthy();
  });

  it("lists every error of a refused task file in a panel, each with its path", async () => {
    const { api } = fakeApi();
    vi.mocked(api.tasks.load).mockRejectedValue(new ApiError("invalid", "bad.yaml: at name: empty\nbad.yaml: at plan[1].target: a target needs a role"));
    render(<App api={api} />);
    const file = new File(["x"], "bad.yaml");
    await act(async () => fireEvent.change(screen.getByTestId("task-file"), { target: { files: [file] } }));
    const panel = screen.getByRole("alert", { name: "Errors" });
    expect(within(panel).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "invalid input Could not open bad.yaml: bad.yaml: at name: empty",
      "invalid input bad.yaml: at plan[1].target: a target needs a role",
    ]);
    await act(async () => fireEvent.click(within(panel).getByRole("button", { name: "Dismiss" })));
    expect(screen.queryByRole("alert", { name: "Errors" })).toBeNull();
  });
});

describe("App history", () => {
  const summaries = [
    { id: "run-1", task: "booking", created: "2026-11-30T05:00:00Z", added: "2026-11-30T05:00:00Z", status: "finished" as const, source: "live", attempts: 2, completed: 1, wrong: 1 },
    { id: "run-2", task: "booking", created: "2025-01-01T00:00:00Z", added: "2026-12-01T00:00:00Z", status: "imported" as const, source: "shared.json", attempts: 1, completed: 0, wrong: 0 },
  ];

  it("lists each run with its id, source, task and wrong attempts, filters and searches", async () => {
    const { api } = fakeApi();
    vi.mocked(api.history.list).mockResolvedValue(summaries);
    render(<App api={api} />);
    const history = await screen.findByRole("navigation", { name: "Run history" });
    await within(history).findByText("run-1");
    const entries = () => within(history).queryAllByRole("listitem").map((li) => li.querySelector("code")!.textContent);
    expect(entries()).toEqual(["run-2", "run-1"]); // the import was added last
    expect(within(history).getByTestId("run-run-2").textContent).toContain("booking · shared.json");
    expect(within(history).getByTestId("run-run-1").textContent).toContain("1/2 completed · 1 wrong");
    fireEvent.change(within(history).getByLabelText("Sort"), { target: { value: "created" } });
    expect(entries()).toEqual(["run-1", "run-2"]);
    fireEvent.click(within(history).getByLabelText("with wrong attempts"));
    expect(entries()).toEqual(["run-1"]);
    expect(within(history).getByRole("status").textContent).toBe("1 of 2 runs");
    fireEvent.click(within(history).getByRole("button", { name: "Clear" }));
    fireEvent.change(within(history).getByLabelText("Search runs"), { target: { value: "SHARED" } });
    expect(entries()).toEqual(["run-2"]);
    fireEvent.change(within(history).getByLabelText("Search runs"), { target: { value: "" } });
    fireEvent.change(within(history).getByLabelText("Source"), { target: { value: "live" } });
    expect(entries()).toEqual(["run-1"]);
  });

  it("deletes a run only once the user confirms, and closes it if it was shown", async () => {
    const { api } = fakeApi();
    vi.mocked(api.history.list).mockResolvedValue(summaries);
    render(<App api={api} />);
    const history = await screen.findByRole("navigation", { name: "Run history" });
    await act(async () => fireEvent.click(await within(history).findByRole("button", { name: /^run-1/ })));
    expect(screen.getByRole("row", { name: "Saves normally" }).textContent).toContain("yes");
    fireEvent.click(within(history).getByRole("button", { name: "Delete run run-1" }));
    expect(api.history.delete).not.toHaveBeenCalled();
    fireEvent.click(within(history).getByRole("button", { name: "Keep" }));
    fireEvent.click(within(history).getByRole("button", { name: "Delete run run-1" }));
    vi.mocked(api.history.list).mockResolvedValue([summaries[1]]);
    await act(async () => fireEvent.click(within(within(history).getByRole("group", { name: "Delete run run-1?" })).getByRole("button", { name: "Delete" })));
    expect(api.history.delete).toHaveBeenCalledWith("run-1");
    expect(screen.getByText("Deleted run run-1.")).toBeTruthy();
    expect(within(history).queryByText("run-1")).toBeNull();
    expect(screen.getByRole("row", { name: "Saves normally" }).textContent).not.toContain("yes");
  });

  it("re-reads the history every few seconds while the window is visible", async () => {
    vi.useFakeTimers();
    try {
      const { api } = fakeApi();
      render(<App api={api} />);
      await act(async () => {});
      vi.mocked(api.history.list).mockClear().mockResolvedValue(summaries);
      await act(async () => vi.advanceTimersByTimeAsync(HISTORY_POLL_MS + 100));
      expect(api.history.list).toHaveBeenCalledTimes(1);
      expect(within(screen.getByRole("navigation", { name: "Run history" })).getByText("run-2")).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("App deep links", () => {
  it("reads a long attempt's step summaries apart from its header, drawing the linked step before them", async () => {
    window.history.replaceState(null, "", "#/run/run-1/attempt/notice-nothing-saved/step/2");
    const { api } = fakeApi();
    const head = runHeader(run);
    vi.mocked(api.history.header).mockResolvedValue({ ...head, attempts: head.attempts!.map((a) => ({ ...a, steps: null })) });
    let answer: (s: StepSummary[]) => void = () => {};
    vi.mocked(api.history.summaries).mockReturnValue(new Promise((r) => (answer = r)));
    render(<App api={api} />);
    expect(await screen.findByText("Step 2 of 5: Fill task title")).toBeTruthy(); // from the step read whole
    expect(screen.getByText("Listing the 5 steps…")).toBeTruthy();
    expect(api.history.summaries).toHaveBeenCalledWith("run-1", "notice-nothing-saved");
    await act(async () => answer(headerOf(noticeNothingSaved).steps!));
    expect(within(screen.getByRole("navigation", { name: "Steps" })).getAllByRole("button")).toHaveLength(5);
    expect(screen.getByRole("listbox", { name: "Timeline marks" })).toBeTruthy();
  });

  it("opens a linked run that is still going live, and loads it again when it ends", async () => {
    window.history.replaceState(null, "", "#/run/run-1");
    const { api, emit } = fakeApi();
    const head = runHeader(run);
    vi.mocked(api.history.header).mockResolvedValueOnce({ ...head, status: "running", attempts: [] });
    vi.mocked(api.runs.going)
      .mockResolvedValueOnce({ id: "", planned: null, events: null }) // the window's own question, answered first
      .mockResolvedValue({
        id: "run-1",
        planned: ["saves-normally", "notice-nothing-saved"],
        events: [
          { run_id: "run-1", kind: "run-started", total: 2, seq: 1 },
          { run_id: "run-1", kind: "attempt-started", slug: "saves-normally", index: 1, total: 2, seq: 2 },
          { run_id: "run-1", kind: "attempt-finished", slug: "saves-normally", attempt: savesNormally, seq: 3 },
          { run_id: "run-1", kind: "attempt-started", slug: "notice-nothing-saved", index: 2, total: 2, seq: 4 },
        ],
      });
    render(<App api={api} />);
    await act(async () => {});
    expect(screen.getByRole("button", { name: "Stop" })).toHaveProperty("disabled", false);
    expect(screen.getByTestId("progress").textContent).toContain("attempt 2 of 2");
    expect(screen.getByTestId("live-notice-nothing-saved")).toBeTruthy();
    expect(within(screen.getByRole("row", { name: "Saves normally" })).getByText(savesNormally.terminal)).toBeTruthy();
    await act(async () => emit({ run_id: "run-1", kind: "run-finished", status: "finished", seq: 5 }));
    expect(api.history.header).toHaveBeenCalledTimes(2);
    expect(screen.getByRole("button", { name: "Stop" })).toHaveProperty("disabled", true);
    window.history.replaceState(null, "", window.location.pathname);
  });

  it("loses no event of a run it follows while it asks again which run is going", async () => {
    window.history.replaceState(null, "", "#/run/run-1");
    const { api, emit } = fakeApi();
    const head = runHeader(run);
    vi.mocked(api.history.header).mockResolvedValueOnce({ ...head, status: "running", attempts: [] });
    const going = {
      id: "run-1",
      planned: ["saves-normally"],
      events: [
        { run_id: "run-1", kind: "run-started", total: 1, seq: 1 },
        { run_id: "run-1", kind: "attempt-started", slug: "saves-normally", index: 1, total: 1, seq: 2 },
      ] as Progress[],
    };
    let answer: (g: GoingRun) => void = () => {};
    vi.mocked(api.runs.going)
      .mockResolvedValueOnce(going) // the window's own question
      .mockReturnValueOnce(new Promise((r) => (answer = r))); // the link's, answered late
    render(<App api={api} />);
    await act(async () => {});
    await act(async () => emit({ run_id: "run-1", kind: "step", slug: "saves-normally", step: savesNormally.steps![0], seq: 3 }));
    await act(async () => answer(going));
    expect(screen.getByTestId("live-saves-normally").textContent).toContain(`step 1: ${savesNormally.steps![0].action.description}`);
    await act(async () => emit({ run_id: "run-1", kind: "run-finished", status: "finished", seq: 4 }));
    expect(api.history.header).toHaveBeenCalledTimes(2);
    expect(screen.getByRole("button", { name: "Stop" })).toHaveProperty("disabled", true);
    window.history.replaceState(null, "", window.location.pathname);
  });

  it("opens the run, attempt and step a link names, and keeps the link in step with the selection", async () => {
    window.history.replaceState(null, "", "#/run/run-1/attempt/notice-nothing-saved/step/4");
    const { api } = fakeApi();
    render(<App api={api} />);
    expect(await screen.findByText("Step 4 of 5: Submit reservation form")).toBeTruthy();
    expect(api.history.header).toHaveBeenCalledWith("run-1");
    // The run opens by its header; the chosen step is read whole with its block, and only
    // once it is drawn is the attempt replayed (the replay reads it whole).
    expect((await screen.findByTestId("distance")).textContent).toBe("0.000");
    expect(api.history.steps).toHaveBeenCalledWith("run-1", "notice-nothing-saved", 0, 5);
    const [readAt] = vi.mocked(api.history.steps).mock.invocationCallOrder;
    expect(vi.mocked(api.history.replay).mock.invocationCallOrder[0]).toBeGreaterThan(readAt);
    expect(screen.getByRole("row", { name: "Notice shown, nothing saved" }).getAttribute("aria-current")).toBe("true");
    fireEvent.keyDown(document.body, { key: "ArrowRight" });
    expect(window.location.hash).toBe("#/run/run-1/attempt/notice-nothing-saved/step/5");
    fireEvent.click(screen.getByRole("row", { name: "Saves normally" }));
    // Written once the selection stands still, when it moves in quick succession.
    await waitFor(() => expect(window.location.hash).toBe("#/run/run-1/attempt/saves-normally/step/1"));
    await act(async () => {
      window.history.replaceState(null, "", "#/run/run-1/attempt/notice-nothing-saved/step/2");
      window.dispatchEvent(new HashChangeEvent("hashchange"));
    });
    expect(screen.getByTestId("step-heading").textContent).toBe("Step 2 of 5: Fill task title");
  });
});

describe("App and what else runs", () => {
  const elsewhere: GoingRun = {
    id: "run-9",
    elsewhere: "observatory run, pid 4242",
    planned: ["save-refused"],
    events: [
      { run_id: "run-9", kind: "run-started", total: 1, seq: 1 },
      { run_id: "run-9", kind: "attempt-started", slug: "save-refused", index: 1, total: 1, seq: 2 },
    ],
  };

  it("opens the step a link names while another process runs, and keeps it when another run starts", async () => {
    window.history.replaceState(null, "", "#/run/run-1/attempt/notice-nothing-saved/step/4");
    const { api, emit } = fakeApi();
    vi.mocked(api.runs.going).mockResolvedValue(elsewhere);
    render(<App api={api} />);
    expect(await screen.findByText("Step 4 of 5: Submit reservation form")).toBeTruthy();
    await act(async () => {});
    expect(screen.getByRole("row", { name: "Notice shown, nothing saved" }).getAttribute("aria-current")).toBe("true");
    expect(screen.queryByText("Select an attempt to see its trace.")).toBeNull();
    expect(screen.queryByTestId("live-save-refused")).toBeNull();
    await act(async () => {
      emit({ run_id: "run-8", kind: "run-started", total: 1, seq: 1 });
      emit({ run_id: "run-8", kind: "attempt-started", slug: "saves-normally", index: 1, total: 1, seq: 2 });
    });
    expect(screen.getByTestId("step-heading").textContent).toBe("Step 4 of 5: Submit reservation form");
    expect(window.location.hash).toBe("#/run/run-1/attempt/notice-nothing-saved/step/4");
    window.history.replaceState(null, "", window.location.pathname);
  });

  it("shows a run going elsewhere over the run it opened, and a link to that run pasted then", async () => {
    window.history.replaceState(null, "", "/");
    const { api, emit } = fakeApi();
    vi.mocked(api.history.list).mockResolvedValue([
      { id: "run-1", task: "booking", created: "2025-01-01T00:00:00Z", added: "2025-01-01T00:00:00Z", status: "finished", source: "live", attempts: 2, completed: 1, wrong: 1 },
    ]);
    vi.mocked(api.runs.going).mockResolvedValueOnce({ id: "", planned: null, events: null }).mockResolvedValue(elsewhere);
    render(<App api={api} />);
    await vi.waitFor(() => expect(api.history.header).toHaveBeenCalledWith("run-1")); // the newest run, opened by the window itself
    await act(async () => emit({ run_id: "run-9", kind: "run-started", seq: 1 }));
    expect(await screen.findByTestId("live-save-refused")).toBeTruthy();
    await act(async () => {
      window.history.replaceState(null, "", "#/run/run-1/attempt/notice-nothing-saved/step/4");
      window.dispatchEvent(new HashChangeEvent("hashchange"));
    });
    await vi.waitFor(() => expect(screen.getByTestId("step-heading").textContent).toBe("Step 4 of 5: Submit reservation form"));
    expect(screen.queryByTestId("live-save-refused")).toBeNull();
    window.history.replaceState(null, "", window.location.pathname);
  });

  it("shows a run's attempts only, and offers the task's others to run below it", async () => {
    window.history.replaceState(null, "", "#/run/run-1");
    const { api } = fakeApi();
    render(<App api={api} />);
    await screen.findByRole("row", { name: "Saves normally" });
    const table = screen.getByRole("table", { name: "Attempts" });
    expect(within(table).queryByRole("row", { name: "Save refused" })).toBeNull();
    const others = screen.getByTestId("not-in-run");
    expect(others.textContent).toBe("Not in this run, one more attempt of booking: ▶ Save refused");
    fireEvent.click(within(others).getByRole("button", { name: "Run Save refused" }));
    expect(api.runs.start).toHaveBeenCalledWith({ task: "lab:booking", attempts: ["save-refused"], config: {} });
    window.history.replaceState(null, "", window.location.pathname);
  });

  it("leaves the task picker as it was when a suite's run of another task opens", async () => {
    window.history.replaceState(null, "", "#/run/run-1/attempt/saves-normally");
    const { api } = fakeApi();
    vi.mocked(api.tasks.list).mockResolvedValue([issueTaskInfo, lab]);
    vi.mocked(api.history.header).mockResolvedValue({ ...runHeader(run), suite_run: "smoke@x" });
    render(<App api={api} />);
    expect(await screen.findByTestId("step-heading")).toBeTruthy();
    await act(async () => {});
    expect(document.querySelector<HTMLSelectElement>(".task-picker select")?.value).toBe(issueTaskInfo.ref);
    // its rows still run its own task
    fireEvent.click(screen.getByRole("button", { name: "Run Saves normally" }));
    expect(api.runs.start).toHaveBeenCalledWith({ task: "lab:booking", attempts: ["saves-normally"], config: {} });
    window.history.replaceState(null, "", window.location.pathname);
  });
});

describe("App compare", () => {
  const summaries = [
    { id: "run-1", task: "booking", created: "2026-11-30T05:00:00Z", added: "2026-11-30T05:00:00Z", status: "finished" as const, source: "live", attempts: 2, completed: 1, wrong: 1 },
    { id: "run-2", task: "booking", created: "2025-01-01T00:00:00Z", added: "2026-12-01T00:00:00Z", status: "imported" as const, source: "shared.json", attempts: 1, completed: 0, wrong: 0 },
  ];

  it("compares two runs picked in the history, keeps the pair in the link, and closes back to the trace", async () => {
    window.history.replaceState(null, "", "/");
    const { api } = fakeApi();
    vi.mocked(api.history.list).mockResolvedValue(summaries);
    render(<App api={api} />);
    const history = await screen.findByRole("navigation", { name: "Run history" });
    await within(history).findByText("run-1");
    // the window opens the newest run at start, and its link
    await vi.waitFor(() => expect(window.location.hash).toBe("#/run/run-1"));
    const compare = within(history).getByRole("button", { name: "Compare" });
    expect(compare).toHaveProperty("disabled", true);
    fireEvent.click(within(history).getByRole("checkbox", { name: "Compare run run-1" }));
    expect(compare).toHaveProperty("disabled", true);
    fireEvent.click(within(history).getByRole("checkbox", { name: "Compare run run-2" }));
    await act(async () => {
      fireEvent.click(compare);
      window.dispatchEvent(new HashChangeEvent("hashchange"));
    });
    expect(window.location.hash).toBe("#/compare/run-1/run-2");
    expect(api.analysis.compare).toHaveBeenCalledWith("run-1", "run-2");
    const view = await screen.findByRole("region", { name: /Compare runs/ });
    expect(within(view).getByRole("status").textContent).toBe("2 of 3 attempts differ");
    expect(api.analysis.compareRates).toHaveBeenCalledWith("run-1", "run-2");
    expect(await within(view).findByRole("table", { name: /Completion rates over the trials/ })).toBeTruthy();
    expect(screen.queryByRole("region", { name: "Trace" })).toBeNull();
    await act(async () => fireEvent.click(within(view).getByRole("button", { name: "Close comparison" })));
    expect(screen.queryByRole("region", { name: /Compare runs/ })).toBeNull();
    expect(window.location.hash).not.toContain("compare");
  });

  it("opens the comparison a link names, and says why when it cannot", async () => {
    window.history.replaceState(null, "", "#/compare/run-1/nope");
    const { api } = fakeApi();
    vi.mocked(api.analysis.compare).mockRejectedValue(new Error('run "nope" not found'));
    render(<App api={api} />);
    expect(await screen.findByText('Could not compare the runs: run "nope" not found')).toBeTruthy();
    expect(window.location.hash).toBe("#/compare/run-1/nope"); // the link is kept, not rewritten
    window.history.replaceState(null, "", "/");
  });
});

describe("App keyboard and theme", () => {
  it("moves the attempt selection with ↑/↓ anywhere outside controls, the focus following", async () => {
    const { api } = fakeApi();
    render(<App api={api} />);
    await screen.findByRole("row", { name: "Save refused" });
    await act(async () => {}); // the rows' key handler is attached in an effect after they show
    fireEvent.keyDown(document.body, { key: "ArrowDown" });
    const first = screen.getByRole("row", { name: "Saves normally" });
    expect(first.getAttribute("aria-current")).toBe("true");
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" });
    fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" });
    expect(document.activeElement).toBe(screen.getByRole("row", { name: "Save refused" }));
    expect(screen.getByRole("row", { name: "Save refused" }).getAttribute("aria-current")).toBe("true");
    fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" }); // the last row stays
    expect(document.activeElement).toBe(screen.getByRole("row", { name: "Save refused" }));
    fireEvent.keyDown(screen.getByRole("combobox", { name: "Theme" }), { key: "ArrowUp" }); // a control keeps its keys
    expect(screen.getByRole("row", { name: "Save refused" }).getAttribute("aria-current")).toBe("true");
  });

  it("keeps the focus on the chosen step as ←/→ move it", async () => {
    const { api } = fakeApi();
    vi.mocked(api.history.list).mockResolvedValue([
      { id: "run-1", task: "booking", created: "2026-11-30T05:00:00Z", added: "2026-11-30T05:00:00Z", status: "finished", source: "live", attempts: 2, completed: 1, wrong: 1 },
    ]);
    render(<App api={api} />);
    const history = await screen.findByRole("navigation", { name: "Run history" });
    await act(async () => fireEvent.click(await within(history).findByRole("button", { name: /^run-1/ })));
    fireEvent.click(screen.getByRole("row", { name: "Saves normally" }));
    const steps = screen.getByRole("navigation", { name: "Steps" });
    within(steps).getByRole("button", { name: /Fill task title/ }).focus();
    fireEvent.click(document.activeElement!);
    fireEvent.keyDown(document.activeElement!, { key: "ArrowRight" });
    expect(document.activeElement).toBe(within(steps).getByRole("button", { name: /Choose a room/ }));
    expect(document.activeElement!.getAttribute("aria-current")).toBe("step");
    fireEvent.keyDown(document.activeElement!, { key: "End" });
    expect(document.activeElement).toBe(within(steps).getByRole("button", { name: /Verify committed reservation/ }));
  });

  it("closes Settings and Metrics on Esc and on a press outside them, never on a press inside", async () => {
    const { api } = fakeApi();
    render(<App api={api} />);
    await act(async () => {});
    fireEvent.click(screen.getByRole("button", { name: "Settings" }));
    const settings = await screen.findByRole("form", { name: "Settings" });
    fireEvent.pointerDown(within(settings).getByRole("button", { name: "Save" }));
    expect(screen.getByRole("form", { name: "Settings" })).toBeTruthy();
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(screen.queryByRole("form", { name: "Settings" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Metrics" }));
    expect(screen.getByRole("button", { name: "Metrics" }).getAttribute("aria-pressed")).toBe("true");
    fireEvent.pointerDown(screen.getByRole("row", { name: "Save refused" }));
    expect(screen.getByRole("button", { name: "Metrics" }).getAttribute("aria-pressed")).toBe("false");
  });

  it("switches to the dark theme and remembers it", async () => {
    const { api } = fakeApi();
    render(<App api={api} />);
    fireEvent.change(screen.getByRole("combobox", { name: "Theme" }), { target: { value: "dark" } });
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(localStorage.getItem("observatory.theme")).toBe("dark");
    fireEvent.change(screen.getByRole("combobox", { name: "Theme" }), { target: { value: "light" } });
    expect(document.documentElement.dataset.theme).toBe("light");
  });
});
