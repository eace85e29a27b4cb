// The one module that talks to the backend. Inside the Wails desktop it calls the bound Go
// services (window.go.app.<Service>.<Method>) and listens through window.runtime.EventsOn; in
// a plain browser served by `observatory serve` it POSTs to /api/<Service>/<Method> and reads
// events from one shared WebSocket at /api/events. See docs/api.md.
import type {
  ImportResult,
  LabInfo,
  Progress,
  Replay,
  Run,
  RunSummary,
  SessionInfo,
  Settings,
  StartRequest,
} from "./types";

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
}

/** Picks Wails when its bindings are present, HTTP otherwise. */
export function detectTransport(win: ClientWindow): Transport {
  return win.go?.app ? wailsTransport(win) : httpTransport(win);
}

function wailsTransport(win: ClientWindow): Transport {
  return {
    kind: "wails",
    call<T>(service: string, method: string, ...args: unknown[]): Promise<T> {
      const fn = win.go?.app?.[service]?.[method];
      if (!fn) {
        return Promise.reject(new Error(`${service}.${method} is not bound in this desktop build; rebuild the app`));
      }
      return fn(...args) as Promise<T>;
    },
    onEvent(name, cb) {
      if (!win.runtime) throw new Error("the Wails runtime is missing from the window; rebuild the app");
      return win.runtime.EventsOn(name, cb);
    },
  };
}

/** Reconnect delays for the event socket, in ms; the last one repeats. */
const RECONNECT_MS = [500, 1000, 2000, 5000];

function httpTransport(win: ClientWindow): Transport {
  const listeners = new Map<string, Set<(data: unknown) => void>>();
  let socket: WebSocket | null = null;
  let failures = 0;

  const connect = () => {
    const scheme = win.location.protocol === "https:" ? "wss" : "ws";
    const ws = new win.WebSocket(`${scheme}://${win.location.host}/api/events`);
    socket = ws;
    ws.onopen = () => {
      failures = 0;
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
    async call<T>(service: string, method: string, ...args: unknown[]): Promise<T> {
      const url = `/api/${service}/${method}`;
      let res: Response;
      try {
        res = await win.fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(args),
        });
      } catch (err) {
        throw new Error(`${service}.${method}: the service did not answer (${String(err)}); is observatory serve running?`);
      }
      const text = await res.text();
      let body: { result?: T; error?: string };
      try {
        body = JSON.parse(text);
      } catch {
        throw new Error(`${service}.${method}: HTTP ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`);
      }
      if (!res.ok || body.error) {
        throw new Error(body.error || `${service}.${method}: HTTP ${res.status}`);
      }
      return body.result as T;
    },
    onEvent(name, cb) {
      if (!listeners.has(name)) listeners.set(name, new Set());
      listeners.get(name)!.add(cb);
      if (!socket) connect();
      return () => {
        listeners.get(name)?.delete(cb);
      };
    },
  };
}

/** Typed wrappers for every service method in docs/api.md. */
export interface Api {
  kind: Transport["kind"];
  /** Subscribes to run progress events. */
  onProgress(cb: (p: Progress) => void): () => void;
  runs: {
    labs(): Promise<LabInfo[]>;
    start(req: StartRequest): Promise<string>;
    stop(): Promise<void>;
    reset(): Promise<void>;
    history(): Promise<RunSummary[]>;
    get(id: string): Promise<Run>;
    replay(id: string, slug: string): Promise<Replay>;
  };
  files: {
    exportJSON(id: string): Promise<string>;
    importJSON(name: string, content: string): Promise<ImportResult>;
    /** Desktop only: a native save dialog; "" when cancelled. */
    exportDialog(id: string): Promise<string>;
    /** Desktop only: a native open dialog; run_id null when cancelled. */
    importDialog(): Promise<ImportResult>;
  };
  settings: {
    get(): Promise<Settings>;
    save(s: Settings): Promise<void>;
  };
  session: {
    /** Tells the backend the UI has mounted (the desktop smoke test waits for it). */
    ready(): Promise<SessionInfo>;
  };
}

/** Builds the typed API over a transport. */
export function createApi(t: Transport): Api {
  const c = t.call.bind(t);
  return {
    kind: t.kind,
    onProgress: (cb) => t.onEvent("run", (data) => cb(data as Progress)),
    runs: {
      labs: () => c<LabInfo[]>("Runs", "Labs"),
      start: (req) => c<string>("Runs", "Start", req),
      stop: () => c<void>("Runs", "Stop"),
      reset: () => c<void>("Runs", "Reset"),
      history: () => c<RunSummary[]>("Runs", "History"),
      get: (id) => c<Run>("Runs", "Get", id),
      replay: (id, slug) => c<Replay>("Runs", "Replay", id, slug),
    },
    files: {
      exportJSON: (id) => c<string>("Files", "ExportJSON", id),
      importJSON: (name, content) => c<ImportResult>("Files", "ImportJSON", name, content),
      exportDialog: (id) => c<string>("Files", "ExportDialog", id),
      importDialog: () => c<ImportResult>("Files", "ImportDialog"),
    },
    settings: {
      get: () => c<Settings>("Settings", "Get"),
      save: (s) => c<void>("Settings", "Save", s),
    },
    session: {
      ready: () => c<SessionInfo>("Session", "Ready"),
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
