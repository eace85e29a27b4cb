import { describe, expect, it, vi } from "vitest";
import { ApiError, createApi, desktopVideoURL, detectTransport, errorText, type ClientWindow } from "./client";

/** A WebSocket stand-in that records instances so tests can push messages and close them. */
class FakeSocket {
  static made: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((m: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(public url: string) {
    FakeSocket.made.push(this);
  }
}

function httpWindow(fetch: ClientWindow["fetch"], timers: (() => void)[] = []): ClientWindow {
  return {
    location: { protocol: "http:", host: "127.0.0.1:8080" },
    fetch,
    WebSocket: FakeSocket as unknown as ClientWindow["WebSocket"],
    setTimeout: (fn) => timers.push(fn),
  };
}

const reply = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));

describe("transport detection", () => {
  it("uses Wails when window.go.app is present", () => {
    const win = { ...httpWindow(vi.fn()), go: { app: {} } };
    expect(detectTransport(win).kind).toBe("wails");
  });
  it("uses HTTP otherwise", () => {
    expect(detectTransport(httpWindow(vi.fn())).kind).toBe("http");
  });
});

describe("Wails transport", () => {
  it("calls the bound method with the arguments and subscribes through EventsOn", async () => {
    const replay = vi.fn().mockResolvedValue({ frames: [] });
    const off = vi.fn();
    const eventsOn = vi.fn().mockReturnValue(off);
    const win = { ...httpWindow(vi.fn()), go: { app: { History: { Replay: replay } } }, runtime: { EventsOn: eventsOn } };
    const api = createApi(detectTransport(win));

    await expect(api.history.replay("r1", "saves-normally")).resolves.toEqual({ frames: [] });
    expect(replay).toHaveBeenCalledWith("r1", "saves-normally");

    const cb = vi.fn();
    const unsubscribe = api.onProgress(cb);
    expect(eventsOn).toHaveBeenCalledWith("run", expect.any(Function));
    eventsOn.mock.calls[0][1]({ run_id: "r1", kind: "run-started" });
    expect(cb).toHaveBeenCalledWith({ run_id: "r1", kind: "run-started" });
    unsubscribe();
    expect(off).toHaveBeenCalled();
  });

  it("opens a task file through the bound native dialog", async () => {
    const open = vi.fn().mockResolvedValue({ ref: "" });
    const api = createApi(detectTransport({ ...httpWindow(vi.fn()), go: { app: { Tasks: { OpenDialog: open } } } }));
    await expect(api.tasks.openDialog()).resolves.toEqual({ ref: "" });
    expect(open).toHaveBeenCalledWith();
  });

  it("rejects with the same typed error a bound method's ErrorFormatter sends", async () => {
    const start = vi.fn().mockRejectedValue({ kind: "invalid", message: "task.yaml: at success[0].expr: undeclared reference", path: "success[0].expr" });
    const api = createApi(detectTransport({ ...httpWindow(vi.fn()), go: { app: { Runs: { Start: start } } } }));
    const err = await api.runs.start({ task: "t.yaml", attempts: [], config: null }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ kind: "invalid", path: "success[0].expr" });
    expect(errorText(err)).toBe("task.yaml: at success[0].expr: undeclared reference");
  });

  it("names a method the build does not bind", async () => {
    const api = createApi(detectTransport({ ...httpWindow(vi.fn()), go: { app: {} } }));
    await expect(api.settings.get()).rejects.toThrow("Settings.Get is not bound");
  });
});

describe("HTTP transport", () => {
  it("POSTs the arguments as a JSON array and returns result", async () => {
    const fetch = vi.fn().mockReturnValue(reply(200, { result: { id: "r9" } }));
    const api = createApi(detectTransport(httpWindow(fetch)));
    await expect(api.history.header("r9")).resolves.toEqual({ id: "r9" });
    expect(fetch).toHaveBeenCalledWith("/api/History/Header", expect.objectContaining({ method: "POST", body: '["r9"]' }));
  });

  it.each([
    { name: "start", call: (a: ReturnType<typeof createApi>) => a.runs.start({ task: "lab:booking", attempts: [], config: null }), url: "/api/Runs/Start", body: '[{"task":"lab:booking","attempts":[],"config":null}]' },
    { name: "loadTask", call: (a: ReturnType<typeof createApi>) => a.tasks.load("t.yaml", "name: t"), url: "/api/Tasks/Load", body: '["t.yaml","name: t"]' },
    { name: "forgetTask", call: (a: ReturnType<typeof createApi>) => a.tasks.forget("file:t.yaml"), url: "/api/Tasks/Forget", body: '["file:t.yaml"]' },
    { name: "delete", call: (a: ReturnType<typeof createApi>) => a.history.delete("r1"), url: "/api/History/Delete", body: '["r1"]' },
    { name: "history", call: (a: ReturnType<typeof createApi>) => a.history.list(), url: "/api/History/List", body: "[]" },
    { name: "steps", call: (a: ReturnType<typeof createApi>) => a.history.steps("r1", "saves-normally", 16, 16), url: "/api/History/Steps", body: '["r1","saves-normally",16,16]' },
    { name: "export", call: (a: ReturnType<typeof createApi>) => a.files.export("run", "r1", ""), url: "/api/Files/Export", body: '["run","r1",""]' },
  ])("maps $name to $url", async ({ call, url, body }) => {
    const fetch = vi.fn().mockReturnValue(reply(200, { result: null }));
    await call(createApi(detectTransport(httpWindow(fetch))));
    expect(fetch).toHaveBeenCalledWith(url, expect.objectContaining({ body }));
  });

  it("throws the service's error with its kind and path", async () => {
    const fetch = vi.fn().mockReturnValue(reply(409, { error: { kind: "conflict", message: "a run is already going; stop it first" } }));
    const api = createApi(detectTransport(httpWindow(fetch)));
    await expect(api.runs.start({ task: "lab:booking", attempts: [], config: null })).rejects.toThrow("a run is already going");
    const located = vi.fn().mockReturnValue(reply(422, { error: { kind: "invalid", message: "task.yaml: at plan[1].target: no such role", path: "plan[1].target" } }));
    const err = await createApi(detectTransport(httpWindow(located))).tasks.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ kind: "invalid", path: "plan[1].target", message: "task.yaml: at plan[1].target: no such role" });
  });

  it("explains a body that is not JSON", async () => {
    const fetch = vi.fn().mockResolvedValue(new Response("Bad Gateway", { status: 502 }));
    const api = createApi(detectTransport(httpWindow(fetch)));
    await expect(api.tasks.list()).rejects.toThrow("Tasks.List: HTTP 502 with a body that is not JSON: Bad Gateway");
  });

  it("shares one event socket, routes by name and reconnects after a close", () => {
    FakeSocket.made = [];
    const timers: (() => void)[] = [];
    const t = detectTransport(httpWindow(vi.fn(), timers));
    const run = vi.fn();
    const other = vi.fn();
    const off = t.onEvent("run", run);
    t.onEvent("other", other);
    expect(FakeSocket.made.map((s) => s.url)).toEqual(["ws://127.0.0.1:8080/api/events"]);

    FakeSocket.made[0].onmessage!({ data: JSON.stringify({ name: "run", data: { kind: "step" } }) });
    FakeSocket.made[0].onmessage!({ data: "not json" });
    expect(run).toHaveBeenCalledExactlyOnceWith({ kind: "step" });
    expect(other).not.toHaveBeenCalled();

    FakeSocket.made[0].onclose!();
    expect(timers).toHaveLength(1);
    timers[0]();
    expect(FakeSocket.made).toHaveLength(2);

    off();
    FakeSocket.made[1].onmessage!({ data: JSON.stringify({ name: "run", data: {} }) });
    expect(run).toHaveBeenCalledTimes(1);
  });

  it("reports every open of the event socket, the first and each reconnect", () => {
    FakeSocket.made = [];
    const timers: (() => void)[] = [];
    const api = createApi(detectTransport(httpWindow(vi.fn(), timers)));
    const connected = vi.fn();
    const off = api.onConnect(connected);
    api.onProgress(vi.fn());
    FakeSocket.made[0].onopen!();
    expect(connected).toHaveBeenCalledTimes(1);
    FakeSocket.made[0].onclose!();
    timers[0]();
    FakeSocket.made[1].onopen!();
    expect(connected).toHaveBeenCalledTimes(2);
    off();
    FakeSocket.made[1].onclose!();
    timers[1]();
    FakeSocket.made[2].onopen!();
    expect(connected).toHaveBeenCalledTimes(2);
  });

  it.each([
    { name: "run.json", url: "/upload/run.json" },
    { name: "my run.zip", url: "/upload/my%20run.zip" },
  ])("uploads $name's raw bytes to $url", async ({ name, url }) => {
    const fetch = vi.fn().mockReturnValue(reply(200, { result: { run_id: "r9", disagreements: [] } }));
    const api = createApi(detectTransport(httpWindow(fetch)));
    const file = new File(["PK\x03\x04"], name);
    await expect(api.files.upload(file)).resolves.toEqual({ run_id: "r9", disagreements: [] });
    expect(fetch).toHaveBeenCalledWith(url, { method: "POST", headers: { "Content-Type": "application/octet-stream" }, body: file });
  });

  it("throws the error of a refused upload", async () => {
    const fetch = vi.fn().mockReturnValue(reply(422, { error: { kind: "invalid", message: "bundle entry ../x escapes its folder", path: "../x" } }));
    const api = createApi(detectTransport(httpWindow(fetch)));
    await expect(api.files.upload(new File(["x"], "bad.zip"))).rejects.toThrow("bundle entry ../x escapes its folder");
  });

  it("downloads a bundle from /bundle/<id> and explains a failure", async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(new Response("PK\x03\x04", { status: 200 }))
      .mockResolvedValueOnce(new Response("no run r 2\n", { status: 404 }));
    const api = createApi(detectTransport(httpWindow(fetch)));
    await expect((await api.files.bundle("r1")).text()).resolves.toBe("PK\x03\x04");
    expect(fetch).toHaveBeenCalledWith("/bundle/r1");
    await expect(api.files.bundle("r 2")).rejects.toThrow("Downloading /bundle/r%202: HTTP 404: no run r 2");
  });
});

describe("desktopVideoURL", () => {
  it("plays a desktop video from a blob, since its media player cannot read wails://", async () => {
    const fetch = vi.fn().mockResolvedValue(new Response(new Blob(["webm"]), { status: 200 }));
    const create = vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:video");
    await expect(desktopVideoURL("/media/r/a.webm", fetch)).resolves.toBe("blob:video");
    expect(fetch).toHaveBeenCalledWith("/media/r/a.webm");
    expect(await (create.mock.calls[0][0] as Blob).text()).toBe("webm");
    create.mockRestore();
  });

  it("fails for a video the desktop does not have", async () => {
    const fetch = vi.fn().mockResolvedValue(new Response("", { status: 404, statusText: "Not Found" }));
    await expect(desktopVideoURL("/media/r/a.webm", fetch)).rejects.toThrow("404");
  });
});
