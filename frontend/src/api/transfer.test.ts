// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Api } from "./client";
import { exportHAR, exportLedger, exportRun, saveMedia, type ExportFormat } from "./transfer";

/** A partial Api with only the file methods, each a mock the test can inspect. */
function apiOf(kind: Api["kind"]) {
  const files = {
    exportJSON: vi.fn().mockResolvedValue('{"schema":"observatory.run/v1"}'),
    exportDialog: vi.fn().mockResolvedValue(""),
    exportBundleDialog: vi.fn().mockResolvedValue(""),
    exportReport: vi.fn().mockResolvedValue("<!doctype html><title>r1</title>"),
    exportReportDialog: vi.fn().mockResolvedValue(""),
    exportHAR: vi.fn().mockResolvedValue('{"log":{"version":"1.2"}}'),
    exportHARDialog: vi.fn().mockResolvedValue(""),
    saveMediaDialog: vi.fn().mockResolvedValue(""),
    exportLedger: vi.fn().mockResolvedValue("step,intent\n1,Pay\n"),
    exportLedgerDialog: vi.fn().mockResolvedValue(""),
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
  it.each<[ExportFormat, "exportDialog" | "exportBundleDialog" | "exportReportDialog", string]>([
    ["file", "exportDialog", "/home/me/run.json"],
    ["bundle", "exportBundleDialog", "/home/me/run.zip"],
    ["report", "exportReportDialog", "/home/me/report.html"],
  ])("exports a %s through the desktop's %s and reports the path or a cancel", async (format, dialog, path) => {
    const { api, files } = apiOf("wails");
    files[dialog].mockResolvedValueOnce(path);
    await expect(exportRun(api, "r1", format)).resolves.toBe(`Exported to ${path}`);
    await expect(exportRun(api, "r1", format)).resolves.toBe("");
    expect(files[dialog]).toHaveBeenCalledWith("r1");
    expect(files.exportJSON).not.toHaveBeenCalled();
    expect(files.bundle).not.toHaveBeenCalled();
  });

  it.each<[ExportFormat, string, string]>([
    ["file", "observatory-run-r1.json", '{"schema":"observatory.run/v1"}'],
    ["bundle", "observatory-run-r1.zip", "PK\x03\x04zip"],
    ["report", "observatory-report-r1.html", "<!doctype html><title>r1</title>"],
  ])("downloads the %s as %s in a browser", async (format, name, content) => {
    const { api } = apiOf("http");
    const { blobs, clicked } = captureDownloads();
    await expect(exportRun(api, "r1", format)).resolves.toBe(`Downloaded ${name}`);
    expect(clicked).toEqual([[name, "blob:1"]]);
    await expect(blobs[0].text()).resolves.toBe(content);
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

describe("exportHAR", () => {
  it("saves an attempt's HAR through the desktop's dialog, or reports a cancel", async () => {
    const { api, files } = apiOf("wails");
    files.exportHARDialog.mockResolvedValueOnce("/home/me/a.har");
    await expect(exportHAR(api, "r1", "save-refused")).resolves.toBe("Exported the HAR to /home/me/a.har");
    await expect(exportHAR(api, "r1", "save-refused")).resolves.toBe("");
    expect(files.exportHARDialog).toHaveBeenCalledWith("r1", "save-refused");
    expect(files.exportHAR).not.toHaveBeenCalled();
  });

  it("downloads an attempt's HAR in a browser", async () => {
    const { api, files } = apiOf("http");
    const { blobs, clicked } = captureDownloads();
    await expect(exportHAR(api, "r1", "save-refused")).resolves.toBe("Downloaded observatory-r1-save-refused.har");
    expect(files.exportHAR).toHaveBeenCalledWith("r1", "save-refused");
    expect(clicked).toEqual([["observatory-r1-save-refused.har", "blob:1"]]);
    await expect(blobs[0].text()).resolves.toBe('{"log":{"version":"1.2"}}');
  });
});

describe("exportLedger", () => {
  it("saves an attempt's ledger through the desktop's dialog and reports the path or a cancel", async () => {
    const { api, files } = apiOf("wails");
    files.exportLedgerDialog.mockResolvedValueOnce("/home/me/ledger.csv");
    await expect(exportLedger(api, "r1", "price-changed")).resolves.toBe("Exported the ledger to /home/me/ledger.csv");
    await expect(exportLedger(api, "r1", "price-changed")).resolves.toBe("");
    expect(files.exportLedgerDialog).toHaveBeenCalledWith("r1", "price-changed");
    expect(files.exportLedger).not.toHaveBeenCalled();
  });

  it("downloads the ledger as CSV in a browser", async () => {
    const { api, files } = apiOf("http");
    const { blobs, clicked } = captureDownloads();
    const name = "observatory-ledger-r1-price-changed.csv";
    await expect(exportLedger(api, "r1", "price-changed")).resolves.toBe(`Downloaded ${name}`);
    expect(files.exportLedger).toHaveBeenCalledWith("r1", "price-changed");
    expect(clicked).toEqual([[name, "blob:1"]]);
    await expect(blobs[0].text()).resolves.toBe("step,intent\n1,Pay\n");
  });
});
