// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { App } from "../App";
import type { BrowserStatus } from "../api/types";
import { fakeApi, noBrowser, readyBrowsers } from "../test/fakeApi";
import { FirstRunPanel, progressText } from "./FirstRunPanel";

const idle = noBrowser.setup;

describe("FirstRunPanel", () => {
  it("lists the browsers looked for and offers Playwright's Chromium and the command", () => {
    const onSetup = vi.fn();
    const onRecheck = vi.fn();
    render(<FirstRunPanel status={noBrowser} setup={idle} error={null} onSetup={onSetup} onCancel={vi.fn()} onRecheck={onRecheck} />);
    const list = screen.getByRole("list", { name: "Browsers looked for" });
    expect(within(list).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "Google Chrome /opt/google/chrome/chrome not found: not installed",
      "Microsoft Edge /opt/microsoft/msedge/msedge not found: not installed",
      "Chromium /usr/bin/chromium not found: not installed",
      "Playwright's Chromium /home/ada/.cache/ms-playwright/chromium-1248/chrome-linux64/chrome not found: not downloaded",
    ]);
    expect(screen.getByText("observatory install --with-browser")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Download Playwright's Chromium" }));
    expect(onSetup).toHaveBeenCalledOnce();
    fireEvent.click(screen.getByRole("button", { name: "Check again" }));
    expect(onRecheck).toHaveBeenCalledOnce();
  });

  it("says why a chosen browser cannot be used when others are found", () => {
    const status: BrowserStatus = { ...readyBrowsers, ready: false, chosen: undefined, browser_problem: "OBSERVATORY_CHROMIUM /opt/gone/chrome: not installed" };
    render(<FirstRunPanel status={status} setup={idle} error={null} onSetup={vi.fn()} onCancel={vi.fn()} onRecheck={vi.fn()} />);
    expect(screen.getByText(/The browser chosen cannot be used \(OBSERVATORY_CHROMIUM \/opt\/gone\/chrome: not installed\)/)).toBeTruthy();
  });

  it("asks for the driver alone when a browser is there", () => {
    const status: BrowserStatus = { ...readyBrowsers, ready: false, driver: false, driver_problem: "the Playwright driver is not installed" };
    render(<FirstRunPanel status={status} setup={idle} error={null} onSetup={vi.fn()} onCancel={vi.fn()} onRecheck={vi.fn()} />);
    expect(screen.getByRole("button", { name: "Download the Playwright driver" })).toBeTruthy();
    expect(screen.queryByRole("list", { name: "Browsers looked for" })).toBeNull();
  });

  it("shows the download's bytes of its total on a progress bar, with Cancel", () => {
    const onCancel = vi.fn();
    const setup = { state: "running" as const, progress: { phase: "chromium" as const, done: 12_300_000, total: 170_000_000 } };
    render(<FirstRunPanel status={noBrowser} setup={setup} error={null} onSetup={vi.fn()} onCancel={onCancel} onRecheck={vi.fn()} />);
    const bar = screen.getByRole("progressbar", { name: "Setup progress" });
    expect(bar.getAttribute("value")).toBe("12300000");
    expect(bar.getAttribute("max")).toBe("170000000");
    expect(screen.getByRole("status").textContent).toBe("Downloading Playwright's Chromium: 12.3 MB of 170.0 MB");
    expect(screen.queryByRole("button", { name: /Download/ })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onCancel).toHaveBeenCalledOnce();
  });

  it("says why the setup failed, and that a cancelled one kept nothing", () => {
    const failed = { state: "failed" as const, progress: idle.progress, error: "cannot reach the download host cdn.playwright.dev: this machine seems to have no internet access" };
    const { rerender } = render(<FirstRunPanel status={noBrowser} setup={failed} error={null} onSetup={vi.fn()} onCancel={vi.fn()} onRecheck={vi.fn()} />);
    expect(screen.getByRole("alert").textContent).toContain("no internet access");
    rerender(<FirstRunPanel status={noBrowser} setup={{ ...idle, state: "cancelled" }} error={null} onSetup={vi.fn()} onCancel={vi.fn()} onRecheck={vi.fn()} />);
    expect(screen.getByRole("status").textContent).toBe("Cancelled: nothing was kept.");
  });

  it("words progress without a total, and unpacking in files", () => {
    expect(progressText({ phase: "driver", done: 0, total: 0 })).toBe("Downloading the Playwright driver…");
    expect(progressText({ phase: "driver", done: 2_500_000, total: 0 })).toBe("Downloading the Playwright driver: 2.5 MB");
    expect(progressText({ phase: "unpack", done: 3, total: 200 })).toBe("Unpacking: 3 files of 200 files");
  });
});

describe("the window's first run", () => {
  it("shows the panel while no browser is found, follows the setup and goes once the re-check finds one", async () => {
    const { api, emitSetup } = fakeApi();
    vi.mocked(api.browsers.status).mockResolvedValue(noBrowser);
    render(<App api={api} />);
    fireEvent.click(await screen.findByRole("button", { name: "Download Playwright's Chromium" }));
    expect(api.browsers.setup).toHaveBeenCalledOnce();
    act(() => emitSetup({ state: "running", progress: { phase: "chromium", done: 50, total: 100 } }));
    expect(screen.getByRole("progressbar", { name: "Setup progress" }).getAttribute("value")).toBe("50");
    vi.mocked(api.browsers.status).mockResolvedValue(readyBrowsers);
    act(() => emitSetup({ state: "done", progress: { phase: "unpack", done: 2, total: 2 } }));
    await waitFor(() => expect(screen.queryByRole("region", { name: "Set up a browser to run tasks" })).toBeNull());
  });

  it("shows no panel when a browser and the driver are there", async () => {
    const { api } = fakeApi();
    render(<App api={api} />);
    await waitFor(() => expect(api.browsers.status).toHaveBeenCalled());
    expect(screen.queryByRole("region", { name: "Set up a browser to run tasks" })).toBeNull();
  });
});
