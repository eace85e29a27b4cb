// @vitest-environment jsdom
import { describe, expect, it, vi } from "vitest";
import type { Api } from "./client";
import { exportRun, importFile } from "./transfer";

/** A partial Api with only the file methods, each a mock the test can inspect. */
function apiOf(kind: Api["kind"]) {
  const files = {
    exportJSON: vi.fn().mockResolvedValue('{"schema":"observatory.run/v1"}'),
    exportDialog: vi.fn().mockResolvedValue(""),
    importJSON: vi.fn().mockResolvedValue({ run_id: "r2", disagreements: [] }),
  };
  return { api: { kind, files } as unknown as Api, files };
}

describe("exportRun", () => {
  it("uses the native dialog in the desktop and reports the path or a cancel", async () => {
    const { api, files } = apiOf("wails");
    files.exportDialog.mockResolvedValueOnce("/home/me/run.json");
    await expect(exportRun(api, "r1")).resolves.toBe("Exported to /home/me/run.json");
    await expect(exportRun(api, "r1")).resolves.toBe("");
    expect(files.exportJSON).not.toHaveBeenCalled();
  });

  it("downloads the run file through an <a download> in a browser", async () => {
    const { api, files } = apiOf("http");
    URL.createObjectURL = vi.fn().mockReturnValue("blob:run");
    URL.revokeObjectURL = vi.fn();
    const clicked: HTMLAnchorElement[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    await expect(exportRun(api, "r1")).resolves.toBe("Downloaded observatory-run-r1.json");
    expect(files.exportJSON).toHaveBeenCalledWith("r1");
    expect(clicked.map((a) => [a.download, a.href])).toEqual([["observatory-run-r1.json", "blob:run"]]);
    const blob = vi.mocked(URL.createObjectURL).mock.calls[0][0] as Blob;
    await expect(blob.text()).resolves.toBe('{"schema":"observatory.run/v1"}');
    click.mockRestore();
  });
});

describe("importFile", () => {
  it("sends the file's name and text to ImportJSON", async () => {
    const { api, files } = apiOf("http");
    await importFile(api, new File(["{}"], "mine.json"));
    expect(files.importJSON).toHaveBeenCalledWith("mine.json", "{}");
  });
});
