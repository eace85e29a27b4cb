// @vitest-environment jsdom
import { fireEvent, render, screen } from "@testing-library/react";
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
});
