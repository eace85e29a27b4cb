// An in-memory Api for component tests: canned answers, recorded calls and a way to emit
// progress events as the backend would.
import { vi } from "vitest";
import type { Api } from "../api/client";
import type { ApprovalAsk, BrowserStatus, Progress, Run, RunHeader, SetupState } from "../api/types";
import { headerOf } from "../trace/summary";
import { comparison, issueTaskInfo, lab, ledger, noticeNothingSaved, rates, replay, run } from "./fixtures";

/** The header History.Header gives of a stored run: its steps summarised. */
export function runHeader(r: Run): RunHeader {
  return { ...r, attempts: r.attempts?.map(headerOf) ?? null };
}

/**
 * A fake Api plus emit(), which delivers a progress event to every subscriber, emitApproval()
 * and reconnect(). Its store holds the fixtures' run (run-1) and an imported run (run-2).
 */
export function fakeApi() {
  const imported: Run = { ...run, id: "run-2", status: "imported", source: "run.json", attempts: [noticeNothingSaved] };
  const stored = new Map([run, imported].map((r) => [r.id, r]));
  const storedRun = (id: string) => {
    const r = stored.get(id);
    if (!r) throw new Error(`run ${id} not found`);
    return r;
  };
  const attemptOf = (id: string, slug: string) => {
    const a = storedRun(id).attempts?.find((a) => a.attempt === slug);
    if (!a) throw new Error(`run ${id} has no attempt "${slug}"`);
    return a;
  };
  const subscribers = new Set<(p: Progress) => void>();
  const approvals = new Set<(a: ApprovalAsk) => void>();
  const reconnects = new Set<() => void>();
  const setups = new Set<(s: SetupState) => void>();
  const api: Api = {
    kind: "http",
    onProgress: (cb) => {
      subscribers.add(cb);
      return () => subscribers.delete(cb);
    },
    onConnect: (cb) => {
      reconnects.add(cb);
      return () => reconnects.delete(cb);
    },
    onApproval: (cb) => {
      approvals.add(cb);
      return () => approvals.delete(cb);
    },
    onBrowserSetup: (cb) => {
      setups.add(cb);
      return () => setups.delete(cb);
    },
    tasks: {
      list: vi.fn().mockResolvedValue([lab]),
      load: vi.fn().mockResolvedValue(issueTaskInfo),
      openDialog: vi.fn().mockResolvedValue({ ...issueTaskInfo, path: "/home/me/tasks/close-issue.yaml" }),
      forget: vi.fn().mockResolvedValue(undefined),
    },
    runs: {
      start: vi.fn().mockResolvedValue("run-1"),
      going: vi.fn().mockResolvedValue({ id: "", planned: null, events: null }),
      stop: vi.fn().mockResolvedValue(undefined),
      reset: vi.fn().mockResolvedValue(undefined),
      startSuite: vi.fn().mockResolvedValue("suite@run-1"),
      suite: vi.fn().mockRejectedValue(new Error("no suite run")),
    },
    history: {
      list: vi.fn().mockResolvedValue([]),
      header: vi.fn(async (id: string) => runHeader(storedRun(id))),
      summaries: vi.fn(async (id: string, slug: string) => headerOf(attemptOf(id, slug)).steps!),
      steps: vi.fn(async (id: string, slug: string, from: number, count: number) =>
        (storedRun(id).attempts?.find((a) => a.attempt === slug)?.steps ?? []).slice(from, from + count),
      ),
      delete: vi.fn().mockResolvedValue(undefined),
      replay: vi.fn().mockResolvedValue(replay),
      requests: vi.fn().mockResolvedValue({ requests: [] }),
    },
    analysis: {
      metrics: vi.fn().mockResolvedValue({ by: "task", slices: [] }),
      calibration: vi.fn().mockResolvedValue({ by: "task", slices: [], overall: { key: "overall", signals: [] } }),
      ledger: vi.fn().mockResolvedValue(ledger),
      compare: vi.fn().mockResolvedValue(comparison),
      compareRates: vi.fn().mockResolvedValue(rates),
    },
    files: {
      export: vi.fn().mockResolvedValue("{}"),
      exportDialog: vi.fn().mockResolvedValue(""),
      saveMediaDialog: vi.fn().mockResolvedValue("/tmp/saved.trace.zip"),
      bundle: vi.fn().mockResolvedValue(new Blob(["PK"])),
      upload: vi.fn().mockResolvedValue({ run_id: "run-2", disagreements: replay.disagreements }),
      importDialog: vi.fn().mockResolvedValue({ run_id: "", disagreements: null }),
    },
    settings: {
      get: vi.fn().mockResolvedValue({ config: {}, headed: false, browser_path: "", video: false, screenshots: true, trace: false }),
      save: vi.fn().mockResolvedValue(undefined),
      testModel: vi.fn().mockResolvedValue({ model: "openai:tiny", reply: "Connected. · done({})", latency_ms: 42 }),
      storeKey: vi.fn().mockResolvedValue(undefined),
    },
    session: {
      ready: vi.fn().mockResolvedValue({ version: "dev", transport: "http", data_dir: "/tmp/obs" }),
    },
    browsers: {
      health: vi.fn().mockResolvedValue([
        { name: "local Chromium", kind: "local", connects: true, version: "139.0.7258.5", running: 0, check_ms: 412, live: true },
      ]),
      status: vi.fn().mockResolvedValue(readyBrowsers),
      setup: vi.fn().mockResolvedValue(undefined),
      cancelSetup: vi.fn().mockResolvedValue(undefined),
    },
    approvals: {
      answer: vi.fn().mockResolvedValue(undefined),
      pending: vi.fn().mockResolvedValue([]),
    },
  };
  const emit = (p: Progress) => subscribers.forEach((cb) => cb(p));
  /** Delivers an approval event, as the backend sends when a request opens or closes. */
  const emitApproval = (a: ApprovalAsk) => approvals.forEach((cb) => cb(a));
  /** Tells subscribers the event stream came back after a drop. */
  const reconnect = () => reconnects.forEach((cb) => cb());
  /** Delivers a browser setup event, as the backend sends while it downloads. */
  const emitSetup = (s: SetupState) => setups.forEach((cb) => cb(s));
  return { api, emit, emitApproval, reconnect, emitSetup };
}

/** A machine with Debian's Chromium and the Playwright driver: nothing to set up. */
export const readyBrowsers: BrowserStatus = {
  ready: true,
  driver: true,
  chosen: { kind: "chromium", label: "Chromium", path: "/usr/bin/chromium", found: true },
  candidates: [
    { kind: "chrome", label: "Google Chrome", path: "/opt/google/chrome/chrome", found: false, note: "not installed" },
    { kind: "msedge", label: "Microsoft Edge", path: "/opt/microsoft/msedge/msedge", found: false, note: "not installed" },
    { kind: "chromium", label: "Chromium", path: "/usr/bin/chromium", found: true },
    { kind: "playwright", label: "Playwright's Chromium", path: "/home/ada/.cache/ms-playwright/chromium-1248/chrome-linux64/chrome", found: false, note: "not downloaded" },
  ],
  setup: { state: "idle", progress: { phase: "", done: 0, total: 0 } },
  command: "observatory install --with-browser",
};

/** A machine with the driver but no browser at all. */
export const noBrowser: BrowserStatus = {
  ...readyBrowsers,
  ready: false,
  chosen: undefined,
  browser_problem: "no browser found: install Google Chrome, Microsoft Edge or Chromium",
  candidates: readyBrowsers.candidates.map((c) => ({ ...c, found: false, note: c.kind === "playwright" ? "not downloaded" : "not installed" })),
};
