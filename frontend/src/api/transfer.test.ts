// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Api } from "./client";
import { exportRun, saveMedia, type ExportFormat } from "./transfer";

/** A partial Api with only the file methods, each a mock the test can inspect. */
function apiOf(kind: Api["kind"]) {
  const files = {
    // The text of each format the backend sends as text.
    export: vi.fn(async (format: ExportFormat) =>
      ({ run: '{"schema":"observatory.run/v1"}', report: "<!doctype html><title>r1</title>", har: '{"log":{"version":"1.2"}}', ledger: "step,intent\n1,Pay\n" })[format as string],
    ),
    exportDialog: vi.fn().mockResolvedValue(""),
    saveMediaDialog: vi.fn().mockResolvedValue(""),
    bundle: vi.fn().mockResolvedValue(new Blob(["PK\x03\x04zip"], { type: "application/zip" })),
    upload: vi.fn().mockResolvedValue({ run_id: "r2", disagreements: [] }),
  };
  return { api: { kind, files } as unknown as Api, files };
}

/** Records the anchors the page clicks, with the blob each one pointed at. */
function captureDownloads() {
  const blobs: Blob[] = [];
  URL.createObjectURL = vi.fn((b: Blob) => {
    blobs.push(b);
    return `blob:${blobs.length}`;
  });
  URL.revokeObjectURL = vi.fn();
  const clicked: [string, string][] = [];
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push([this.download, this.href]);
  });
  return { blobs, clicked };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("exportRun", () => {
  it.each<[ExportFormat, string, string]>([
    ["run", "", "Exported to /home/me/run.json"],
    ["bundle", "", "Exported to /home/me/run.zip"],
    ["report", "", "Exported to /home/me/report.html"],
    ["har", "save-refused", "Exported the HAR to /home/me/a.har"],
    ["ledger", "price-changed", "Exported the ledger to /home/me/ledger.csv"],
  ])("exports a %s (attempt %j) through the desktop's dialog and reports the path or a cancel", async (format, slug, said) => {
    const { api, files } = apiOf("wails");
    files.exportDialog.mockResolvedValueOnce(said.replace(/^.* to /, ""));
    await expect(exportRun(api, "r1", format, slug)).resolves.toBe(said);
    await expect(exportRun(api, "r1", format, slug)).resolves.toBe("");
    expect(files.exportDialog).toHaveBeenCalledWith(format, "r1", slug);
    expect(files.export).not.toHaveBeenCalled();
    expect(files.bundle).not.toHaveBeenCalled();
  });

  it.each<[ExportFormat, string, string, string]>([
    ["run", "", "observatory-run-r1.json", '{"schema":"observatory.run/v1"}'],
    ["bundle", "", "observatory-run-r1.zip", "PK\x03\x04zip"],
    ["report", "", "observatory-report-r1.html", "<!doctype html><title>r1</title>"],
    ["har", "save-refused", "observatory-r1-save-refused.har", '{"log":{"version":"1.2"}}'],
    ["ledger", "price-changed", "observatory-ledger-r1-price-changed.csv", "step,intent\n1,Pay\n"],
  ])("downloads the %s (attempt %j) as %s in a browser", async (format, slug, name, content) => {
    const { api, files } = apiOf("http");
    const { blobs, clicked } = captureDownloads();
    await expect(exportRun(api, "r1", format, slug)).resolves.toBe(`Downloaded ${name}`);
    expect(clicked).toEqual([[name, "blob:1"]]);
    await expect(blobs[0].text()).resolves.toBe(content);
    if (format === "bundle") expect(files.export).not.toHaveBeenCalled();
    else expect(files.export).toHaveBeenCalledWith(format, "r1", slug);
  });

  it("downloads nothing when the bundle cannot be built", async () => {
    const { api, files } = apiOf("http");
    const { clicked } = captureDownloads();
    files.bundle.mockRejectedValueOnce(new Error("Downloading /bundle/r1: HTTP 404: no run r1"));
    await expect(exportRun(api, "r1", "bundle")).rejects.toThrow("no run r1");
    expect(clicked).toEqual([]);
  });
});

describe("saveMedia", () => {
  it("saves through the desktop's dialog and reports the path or a cancel", async () => {
    const { api, files } = apiOf("wails");
    files.saveMediaDialog.mockResolvedValueOnce("/home/me/t.zip");
    await expect(saveMedia(api, "r1", "saves-normally.trace.zip")).resolves.toBe("Saved saves-normally.trace.zip to /home/me/t.zip");
    await expect(saveMedia(api, "r1", "saves-normally.trace.zip")).resolves.toBe("");
    expect(files.saveMediaDialog).toHaveBeenCalledWith("r1", "saves-normally.trace.zip");
  });

  it("downloads the run's media file in a browser once the server has sent it", async () => {
    const { api } = apiOf("http");
    const { blobs, clicked } = captureDownloads();
    const fetched = vi.fn().mockResolvedValue(new Response("PK\x03\x04trace", { status: 200 }));
    vi.stubGlobal("fetch", fetched);
    await expect(saveMedia(api, "r 1", "saves-normally.trace.zip")).resolves.toBe("Downloaded saves-normally.trace.zip");
    expect(fetched).toHaveBeenCalledWith("/media/r%201/saves-normally.trace.zip", { credentials: "same-origin" });
    expect(clicked).toEqual([["saves-normally.trace.zip", "blob:1"]]);
    expect(await blobs[0].text()).toBe("PK\x03\x04trace");
  });

  it("says a file the server does not have is missing, and downloads nothing", async () => {
    const { api } = apiOf("http");
    const { clicked } = captureDownloads();
    vi.stubGlobal("fetch", vi.fn().mockResolvedValue(new Response("404 page not found", { status: 404 })));
    await expect(saveMedia(api, "r1", "a.trace.zip")).rejects.toThrow("run r1 has no file a.trace.zip here");
    expect(clicked).toEqual([]);
  });
});
