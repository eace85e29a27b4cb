// The one module that talks to the backend. Inside the Wails desktop it calls the bound Go
// services (window.go.app.<Service>.<Method>) and listens through window.runtime.EventsOn; in
// a plain browser served by `observatory serve` it POSTs to /api/<Service>/<Method> and reads
// events from one shared WebSocket at /api/events. See docs/api.md.
import type {
  ApprovalAsk,
  Comparison,
  EndpointHealth,
  GoingRun,
  BrowserStatus,
  ImportResult,
  MetricsBy,
  RateComparison,
  MetricsReport,
  CalibrationReport,
  LedgerEntry,
  AttemptRequests,
  Progress,
  Replay,
  RunHeader,
  RunSummary,
  SessionInfo,
  SetupState,
  Settings,
  Step,
  StepSummary,
  ModelConfig,
  ModelTest,
  StartRequest,
  SuiteReport,
  SuiteRequest,
  TaskInfo,
} from "./types";
import type { ExportFormat } from "./transfer";
import type * as Analysis from "./generated/Analysis";
import type * as Approvals from "./generated/Approvals";
import type * as Browsers from "./generated/Browsers";
import type * as Files from "./generated/Files";
import type * as History from "./generated/History";
import type * as Runs from "./generated/Runs";
import type * as Session from "./generated/Session";
import type * as SettingsService from "./generated/Settings";
import type * as Tasks from "./generated/Tasks";

type Bound = (...args: unknown[]) => Promise<unknown>;

/** The globals the Wails runtime injects into the desktop window. */
export interface WailsGlobals {
  go?: { app?: Record<string, Record<string, Bound>> };
  runtime?: { EventsOn(name: string, cb: (data: unknown) => void): () => void };
}

/** The window features the client reads; a plain object in tests. */
export type ClientWindow = WailsGlobals & {
  location: { protocol: string; host: string };
  fetch: typeof fetch;
  WebSocket: new (url: string) => WebSocket;
  setTimeout: (fn: () => void, ms: number) => unknown;
};

/** How the UI reaches the services: a call and an event subscription. */
export interface Transport {
  /** "wails" inside the desktop, "http" in a browser. */
  kind: "wails" | "http";
  call<T>(service: string, method: string, ...args: unknown[]): Promise<T>;
  /** Subscribes cb to the event name; returns the function that unsubscribes. */
  onEvent(name: string, cb: (data: unknown) => void): () => void;
  /**
   * Subscribes cb to the event stream's connections, its first and every reconnect: events
   * sent before one (while it was down, or before the window's first reads met it) are lost,
   * so the UI re-reads what they would have told it. Returns the function that unsubscribes.
   */
  onConnect(cb: () => void): () => void;
  /** Browser only: posts body's raw bytes to /upload/<name> and returns the result. */
  upload<T>(name: string, body: Blob): Promise<T>;
  /** Browser only: fetches a file the backend serves at path, such as /bundle/<id>. */
  download(path: string): Promise<Blob>;
}

/**
 * A blob URL a desktop <video> can play url from, which the caller revokes when done. Inside
 * the desktop WebKitGTK hands media URLs to GStreamer, which cannot read the app's own
 * wails:// scheme (a long-standing WebKit limitation); fetch does go through the app's asset
 * handler. In a browser a <video> plays url itself.
 */
export async function desktopVideoURL(url: string, fetch: ClientWindow["fetch"] = window.fetch.bind(window)): Promise<string> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${res.statusText}`);
  return URL.createObjectURL(await res.blob());
}

/** What sort of failure a service error is (app/apierror): what the UI can do about it. */
export type ErrorKind = "invalid" | "not_found" | "conflict" | "unavailable" | "cancelled" | "internal";

/**
 * A service's error, the same over both transports: `serve` answers {"error": {kind, message,
 * path}}, and the desktop's bound methods reject with that object.
 */
export class ApiError extends Error {
  readonly kind: ErrorKind;
  /** Where in the input the problem lies ("plan[1].target", "attempts[0].events[2]"); "" for nowhere. */
  readonly path: string;
  constructor(kind: ErrorKind, message: string, path = "") {
    super(message);
    this.name = "ApiError";
    this.kind = kind;
    this.path = path;
  }
}

/** Turns whatever a call failed with into an ApiError; an error of the client's own is internal. */
export function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  if (e && typeof e === "object" && typeof (e as { kind?: unknown }).kind === "string" && typeof (e as { message?: unknown }).message === "string") {
    const w = e as { kind: ErrorKind; message: string; path?: string };
    return new ApiError(w.kind, w.message, w.path ?? "");
  }
  return new ApiError("internal", e instanceof Error ? e.message : String(e));
}

/** The one wording of any error the UI shows: its message. */
export function errorText(e: unknown): string {
  return toApiError(e).message;
}

/** Whether the UI runs inside the desktop window (the Wails bindings are present). */
export function inDesktop(win: Pick<ClientWindow, "go"> = window as unknown as ClientWindow): boolean {
  return !!win.go?.app;
}

/** Picks Wails when its bindings are present, HTTP otherwise. */
export function detectTransport(win: ClientWindow): Transport {
  return inDesktop(win) ? wailsTransport(win) : httpTransport(win);
}

function wailsTransport(win: ClientWindow): Transport {
  return {
    kind: "wails",
    call<T>(service: string, method: string, ...args: unknown[]): Promise<T> {
      const fn = win.go?.app?.[service]?.[method];
      if (!fn) {
        return Promise.reject(new ApiError("unavailable", `${service}.${method} is not bound in this desktop build; rebuild the app`));
      }
      return (fn(...args) as Promise<T>).catch((e: unknown) => {
        throw toApiError(e);
      });
    },
    onEvent(name, cb) {
      if (!win.runtime) throw new Error("the Wails runtime is missing from the window; rebuild the app");
      return win.runtime.EventsOn(name, cb);
    },
    // Wails delivers events in-process from the start; there is no stream to lose.
    onConnect: () => () => {},
    upload: () => Promise.reject(new Error("uploads are for a browser; the desktop imports through its file dialog")),
    download: () => Promise.reject(new Error("downloads are for a browser; the desktop exports through its file dialog")),
  };
}

/** Reconnect delays for the event socket, in ms; the last one repeats. */
const RECONNECT_MS = [500, 1000, 2000, 5000];

function httpTransport(win: ClientWindow): Transport {
  const listeners = new Map<string, Set<(data: unknown) => void>>();
  const connects = new Set<() => void>();
  let socket: WebSocket | null = null;
  let failures = 0;

  const connect = () => {
    const scheme = win.location.protocol === "https:" ? "wss" : "ws";
    const ws = new win.WebSocket(`${scheme}://${win.location.host}/api/events`);
    socket = ws;
    ws.onopen = () => {
      failures = 0;
      connects.forEach((cb) => cb());
    };
    ws.onmessage = (msg: MessageEvent) => {
      let parsed: { name?: string; data?: unknown };
      try {
        parsed = JSON.parse(String(msg.data));
      } catch {
        return; // not an event message; nothing to route
      }
      listeners.get(parsed.name ?? "")?.forEach((cb) => cb(parsed.data));
    };
    ws.onclose = () => {
      socket = null;
      const delay = RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)];
      failures++;
      win.setTimeout(connect, delay);
    };
  };

  return {
    kind: "http",
    call<T>(service: string, method: string, ...args: unknown[]): Promise<T> {
      return request<T>(win, `${service}.${method}`, `/api/${service}/${method}`, "application/json", JSON.stringify(args));
    },
    upload<T>(name: string, body: Blob): Promise<T> {
      return request<T>(win, `Uploading ${name}`, `/upload/${encodeURIComponent(name)}`, "application/octet-stream", body);
    },
    async download(path: string): Promise<Blob> {
      const res = await reach(`Downloading ${path}`, () => win.fetch(path));
      if (!res.ok) throw new Error(`Downloading ${path}: HTTP ${res.status}: ${(await res.text()).trim().slice(0, 200)}`);
      return res.blob();
    },
    onEvent(name, cb) {
      if (!listeners.has(name)) listeners.set(name, new Set());
      listeners.get(name)!.add(cb);
      if (!socket) connect();
      return () => {
        listeners.get(name)?.delete(cb);
      };
    },
    onConnect(cb) {
      connects.add(cb);
      return () => {
        connects.delete(cb);
      };
    },
  };
}

/** Runs a fetch, turning a network failure into an error that says what to check. */
async function reach(what: string, go: () => Promise<Response>): Promise<Response> {
  try {
    return await go();
  } catch (err) {
    throw new ApiError("unavailable", `${what}: the service did not answer (${String(err)}); is observatory serve running?`);
  }
}

/** POSTs body to url and unwraps the backend's {"result": …} or {"error": {kind, message, path}} answer. */
async function request<T>(win: ClientWindow, what: string, url: string, contentType: string, body: BodyInit): Promise<T> {
  const res = await reach(what, () => win.fetch(url, { method: "POST", headers: { "Content-Type": contentType }, body }));
  const text = await res.text();
  let parsed: { result?: T; error?: unknown };
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError("internal", `${what}: HTTP ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  if (!res.ok || parsed.error) {
    throw parsed.error ? toApiError(parsed.error) : new ApiError("internal", `${what}: HTTP ${res.status}`);
  }
  return parsed.result as T;
}

/** Typed wrappers for every service method in docs/api.md. */
export interface Api {
  kind: Transport["kind"];
  /** Subscribes to run progress events, live frames (the `live` event) among them. */
  onProgress(cb: (p: Progress) => void): () => void;
  /** Subscribes to the event stream's connections, the first and every reconnect, after which missed events must be re-read. */
  onConnect(cb: () => void): () => void;
  /** Subscribes to approval requests opening and closing. */
  onApproval(cb: (a: ApprovalAsk) => void): () => void;
  /** Subscribes to the browser setup's progress. */
  onBrowserSetup(cb: (s: SetupState) => void): () => void;
  tasks: {
    /** The labs' built-in tasks, then the recently opened task files. */
    list(): Promise<TaskInfo[]>;
    /** Checks a task file's text (YAML or JSON) and remembers it among the recent tasks. */
    load(name: string, content: string): Promise<TaskInfo>;
    /**
     * Desktop only: asks for a task file in the native dialog, checks it and remembers it by its
     * path; the ref is "" when the user cancelled.
     */
    openDialog(): Promise<TaskInfo>;
    /** Drops a task file from the recent tasks. */
    forget(ref: string): Promise<void>;
  };
  runs: {
    start(req: StartRequest): Promise<string>;
    /** The run going now and its events so far, for a window that opens while it goes. */
    going(): Promise<GoingRun>;
    stop(): Promise<void>;
    reset(): Promise<void>;
    /** Starts a suite run (its tasks one after another) and returns its id. */
    startSuite(req: SuiteRequest): Promise<string>;
    /** A suite run: its runs, the grid of their trials, and the estimates across them. */
    suite(id: string): Promise<SuiteReport>;
  };
  history: {
    list(): Promise<RunSummary[]>;
    /** A stored run, its attempts' steps counted and (short ones') summarised: what the window opens a run with. */
    header(id: string): Promise<RunHeader>;
    /** The summary of every step of one attempt. */
    summaries(id: string, slug: string): Promise<StepSummary[]>;
    /** Up to count (at most 100) steps of an attempt, whole, from the one at position from. */
    steps(id: string, slug: string, from: number, count: number): Promise<Step[]>;
    /** Removes a stored run and its media; a running run is refused. */
    delete(id: string): Promise<void>;
    replay(id: string, slug: string): Promise<Replay>;
    /** Every step's requests of the attempt, each with its step. */
    requests(id: string, slug: string): Promise<AttemptRequests>;
  };
  analysis: {
    /** The outcome metrics across the history, sliced by task, lab, attempt, planner or risk. */
    metrics(by: MetricsBy): Promise<MetricsReport>;
    /** How often each signal agrees with ground truth and the gate, over the runs given (all when none). */
    calibration(by: MetricsBy, runs: string[]): Promise<CalibrationReport>;
    /** The attempt's action ledger: one entry per step. */
    ledger(id: string, slug: string): Promise<LedgerEntry[]>;
    /** Two stored runs side by side, attempt by attempt, with what differs. */
    compare(a: string, b: string): Promise<Comparison>;
    /** Two stored runs as an A/B test: each attempt's completion rate over its trials, the difference and an exact test. */
    compareRates(a: string, b: string): Promise<RateComparison>;
  };
  files: {
    /** Run id (its attempt slug, for har and ledger) in format, as text; the bundle is no text (see bundle). */
    export(format: ExportFormat, id: string, slug: string): Promise<string>;
    /** Desktop only: a native save dialog for the export; "" when cancelled. */
    exportDialog(format: ExportFormat, id: string, slug: string): Promise<string>;
    /** Desktop only: a native save dialog for one of the run's media files; "" when cancelled. */
    saveMediaDialog(id: string, name: string): Promise<string>;
    /** Browser only: the run's bundle (.zip: run file, videos, screenshots) from GET /bundle/<id>. */
    bundle(id: string): Promise<Blob>;
    /** Browser only: imports a run file (.json) or bundle (.zip) by uploading its bytes. */
    upload(file: File): Promise<ImportResult>;
    /** Desktop only: a native open dialog; run_id null when cancelled. */
    importDialog(): Promise<ImportResult>;
  };
  settings: {
    get(): Promise<Settings>;
    save(s: Settings): Promise<void>;
    /** Sends one tiny request to m through the model planner; its reply, or why there was none. */
    testModel(m: ModelConfig): Promise<ModelTest>;
    /** Puts key into the OS keyring as entry (an empty key deletes it); it is stored nowhere else. */
    storeKey(entry: string, key: string): Promise<void>;
  };
  session: {
    /** Tells the backend the UI has mounted (the desktop smoke test waits for it). */
    ready(): Promise<SessionInfo>;
  };
  browsers: {
    /** Checks every browser endpoint runs use: connects, version, attempts running now. */
    health(): Promise<EndpointHealth[]>;
    /** The Playwright driver and the browsers found, and which one runs use. */
    status(): Promise<BrowserStatus>;
    /** Starts installing what is missing: the driver, and Playwright's Chromium when no browser is found. */
    setup(): Promise<void>;
    /** Stops the setup; what it had downloaded is removed. */
    cancelSetup(): Promise<void>;
  };
  approvals: {
    /** Answers the open approval request id; fails once it is closed. */
    answer(id: string, answer: "approve" | "deny"): Promise<void>;
    /** The requests waiting for an answer, oldest first. */
    pending(): Promise<ApprovalAsk[]>;
  };
}

/** The services Go binds, each its methods' declarations as Wails generated them (./generated). */
interface BoundServices {
  Tasks: typeof Tasks;
  Runs: typeof Runs;
  History: typeof History;
  Analysis: typeof Analysis;
  Files: typeof Files;
  Settings: typeof SettingsService;
  Session: typeof Session;
  Approvals: typeof Approvals;
  Browsers: typeof Browsers;
}

/** "Service.Method" for every method Go binds: a call to a method Go no longer has fails the type check. */
export type BoundMethod = { [S in keyof BoundServices]: `${S}.${keyof BoundServices[S] & string}` }[keyof BoundServices];

/** Builds the typed API over a transport. */
export function createApi(t: Transport): Api {
  const c = <T>(name: BoundMethod, ...args: unknown[]): Promise<T> => {
    const [service, method] = name.split(".");
    return t.call<T>(service, method, ...args);
  };
  return {
    kind: t.kind,
    onProgress: (cb) => {
      const offRun = t.onEvent("run", (data) => cb(data as Progress));
      const offLive = t.onEvent("live", (data) => cb(data as Progress));
      return () => {
        offRun();
        offLive();
      };
    },
    onConnect: (cb) => t.onConnect(cb),
    onApproval: (cb) => t.onEvent("approval", (data) => cb(data as ApprovalAsk)),
    onBrowserSetup: (cb) => t.onEvent("browser-setup", (data) => cb(data as SetupState)),
    tasks: {
      list: () => c<TaskInfo[]>("Tasks.List"),
      load: (name, content) => c<TaskInfo>("Tasks.Load", name, content),
      openDialog: () => c<TaskInfo>("Tasks.OpenDialog"),
      forget: (ref) => c<void>("Tasks.Forget", ref),
    },
    runs: {
      start: (req) => c<string>("Runs.Start", req),
      going: () => c<GoingRun>("Runs.Going"),
      stop: () => c<void>("Runs.Stop"),
      reset: () => c<void>("Runs.Reset"),
      startSuite: (req) => c<string>("Runs.StartSuite", req),
      suite: (id) => c<SuiteReport>("Runs.Suite", id),
    },
    history: {
      list: () => c<RunSummary[]>("History.List"),
      header: (id) => c<RunHeader>("History.Header", id),
      summaries: (id, slug) => c<StepSummary[]>("History.Summaries", id, slug),
      steps: (id, slug, from, count) => c<Step[]>("History.Steps", id, slug, from, count),
      delete: (id) => c<void>("History.Delete", id),
      replay: (id, slug) => c<Replay>("History.Replay", id, slug),
      requests: (id, slug) => c<AttemptRequests>("History.Requests", id, slug),
    },
    analysis: {
      metrics: (by) => c<MetricsReport>("Analysis.Metrics", by),
      calibration: (by, runs) => c<CalibrationReport>("Analysis.Calibration", by, runs),
      ledger: (id, slug) => c<LedgerEntry[]>("Analysis.Ledger", id, slug),
      compare: (a, b) => c<Comparison>("Analysis.Compare", a, b),
      compareRates: (a, b) => c<RateComparison>("Analysis.CompareRates", a, b),
    },
    files: {
      export: (format, id, slug) => c<string>("Files.Export", format, id, slug),
      exportDialog: (format, id, slug) => c<string>("Files.ExportDialog", format, id, slug),
      saveMediaDialog: (id, name) => c<string>("Files.SaveMediaDialog", id, name),
      bundle: (id) => t.download(`/bundle/${encodeURIComponent(id)}`),
      upload: (file) => t.upload<ImportResult>(file.name, file),
      importDialog: () => c<ImportResult>("Files.ImportDialog"),
    },
    settings: {
      get: () => c<Settings>("Settings.Get"),
      save: (s) => c<void>("Settings.Save", s),
      testModel: (m) => c<ModelTest>("Settings.TestModel", m),
      storeKey: (entry, key) => c<void>("Settings.StoreKey", entry, key),
    },
    session: {
      ready: () => c<SessionInfo>("Session.Ready"),
    },
    browsers: {
      health: () => c<EndpointHealth[]>("Browsers.Health"),
      status: () => c<BrowserStatus>("Browsers.Status"),
      setup: () => c<void>("Browsers.Setup"),
      cancelSetup: () => c<void>("Browsers.CancelSetup"),
    },
    approvals: {
      answer: (id, answer) => c<void>("Approvals.Answer", id, answer),
      pending: () => c<ApprovalAsk[]>("Approvals.Pending"),
    },
  };
}

/** The API of this window, built on first use. */
let shared: Api | null = null;

/** Returns the API for the current window, detecting the transport once. */
export function windowApi(): Api {
  shared ??= createApi(detectTransport(window as unknown as ClientWindow));
  return shared;
}
