// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Settings } from "../api/types";
import { SettingsPanel } from "./SettingsPanel";

const settings: Settings = { config: {}, headed: false, browser_path: "", video: true, screenshots: true, trace: false };

describe("SettingsPanel", () => {
  it("saves only the fields the user set as the override, with the switches", () => {
    const onSave = vi.fn();
    render(<SettingsPanel settings={settings} onSave={onSave} />);
    expect(screen.queryByText("overrides every attempt")).toBeNull();
    fireEvent.change(screen.getByLabelText("Wait policy"), { target: { value: "fixed" } });
    fireEvent.change(screen.getByLabelText("Poll (ms)"), { target: { value: "150" } });
    fireEvent.change(screen.getByLabelText("Action budget"), { target: { value: "0" } });
    fireEvent.click(screen.getByLabelText("Headed (show the window)"));
    fireEvent.change(screen.getByLabelText("Use"), { target: { value: "(other)" } });
    fireEvent.change(screen.getByLabelText("Browser path"), { target: { value: "/usr/bin/chromium" } });
    expect(screen.getAllByText("overrides every attempt")).toHaveLength(3);
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave).toHaveBeenCalledWith({
      ...settings,
      config: { wait: "fixed", poll_ms: 150, budget: 0 },
      headed: true,
      browser_path: "/usr/bin/chromium",
    });
  });

  it("saves screenshots at twice the page's pixels, and back at its own", () => {
    const onSave = vi.fn();
    render(<SettingsPanel settings={settings} onSave={onSave} />);
    fireEvent.change(screen.getByLabelText("Screenshots at"), { target: { value: "2" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave).toHaveBeenLastCalledWith({ ...settings, pixel_ratio: 2 });
    fireEvent.change(screen.getByLabelText("Screenshots at"), { target: { value: "1" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave).toHaveBeenLastCalledWith({ ...settings, pixel_ratio: undefined });
  });

  it("saves DOM snapshots on, and off again", () => {
    const onSave = vi.fn();
    render(<SettingsPanel settings={settings} onSave={onSave} />);
    const box = screen.getByLabelText(/^DOM snapshots beside them/);
    fireEvent.click(box);
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave).toHaveBeenLastCalledWith({ ...settings, dom_snapshots: true });
    fireEvent.click(box);
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave).toHaveBeenLastCalledWith({ ...settings, dom_snapshots: false });
  });

  it("saves what task files may reach: folders and variables one a line, and link-local hosts", () => {
    const onSave = vi.fn();
    render(<SettingsPanel settings={{ ...settings, allow_env: ["TRACKER_URL"] }} onSave={onSave} />);
    expect(screen.getByLabelText(/^Environment variables/)).toHaveProperty("value", "TRACKER_URL");
    fireEvent.change(screen.getByLabelText(/^Folders besides/), { target: { value: "/srv/tasks\n\n  /home/me/shared  \n" } });
    fireEvent.change(screen.getByLabelText(/^Environment variables/), { target: { value: "TRACKER_URL\nTRACKER_TOKEN" } });
    fireEvent.click(screen.getByLabelText(/^Link-local/));
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave).toHaveBeenCalledWith({
      ...settings,
      allow_paths: ["/srv/tasks", "/home/me/shared"],
      allow_env: ["TRACKER_URL", "TRACKER_TOKEN"],
      allow_link_local: true,
    });
  });

  it("emptying a field or clearing the overrides gives the attempts their own values back", () => {
    const onSave = vi.fn();
    render(<SettingsPanel settings={{ ...settings, config: { budget: 3, selectors: "alias" } }} onSave={onSave} />);
    fireEvent.change(screen.getByLabelText("Action budget"), { target: { value: "" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave.mock.calls[0][0].config).toEqual({ selectors: "alias" });
    fireEvent.click(screen.getByRole("button", { name: "Clear overrides" }));
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave.mock.calls[1][0].config).toEqual({});
  });

  it("turns the harness off for the naive column, and on again", () => {
    const onSave = vi.fn();
    render(<SettingsPanel settings={settings} onSave={onSave} />);
    const harness = screen.getByLabelText("Harness") as HTMLSelectElement;
    expect(harness.value).toBe("on");
    fireEvent.change(harness, { target: { value: "off" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave.mock.calls[0][0].harness).toBe("off");
    fireEvent.change(harness, { target: { value: "on" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave.mock.calls[1][0].harness).toBe("on");
  });

  it("keeps every run until a retention limit is set, and saves the limits set", () => {
    const onSave = vi.fn();
    render(<SettingsPanel settings={settings} onSave={onSave} />);
    expect(screen.getByText("Off: every run is kept.")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Keep the last (runs)"), { target: { value: "20" } });
    fireEvent.change(screen.getByLabelText("Keep runs newer than (days)"), { target: { value: "0" } });
    expect(screen.getByText("Older runs are deleted with their media after each run and at start.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave.mock.calls[0][0].retention).toEqual({ keep_last: 20 });
    fireEvent.change(screen.getByLabelText("Keep the last (runs)"), { target: { value: "" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave.mock.calls[1][0].retention).toEqual({});
  });

  it("checks the browser endpoints only when asked, and shows each one's health", async () => {
    const onCheck = vi.fn().mockResolvedValue([
      { name: "browser server ws://127.0.0.1:4001/", kind: "browser-server", url: "ws://127.0.0.1:4001/", connects: true, version: "139.0.7258.5", running: 2, check_ms: 310, live: true },
      { name: "CDP http://127.0.0.1:9", kind: "cdp", url: "http://127.0.0.1:9", connects: false, error: "connect ECONNREFUSED 127.0.0.1:9", running: 0, check_ms: 12, live: false },
    ]);
    render(<SettingsPanel settings={settings} onSave={vi.fn()} onCheckEndpoints={onCheck} />);
    expect(onCheck).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Check endpoints" }));
    const server = await screen.findByRole("row", { name: /browser server/ });
    expect(within(server).getByText("yes (310 ms)")).toBeTruthy();
    expect(within(server).getByText("139.0.7258.5")).toBeTruthy();
    expect(within(server).getByText("2")).toBeTruthy();
    const cdp = screen.getByRole("row", { name: /CDP/ });
    expect(within(cdp).getByText("no: connect ECONNREFUSED 127.0.0.1:9")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Check again" }));
    expect(onCheck).toHaveBeenCalledTimes(2);
  });
});
