// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { readyBrowsers } from "../test/fakeApi";
import { BrowserChoice } from "./BrowserChoice";

describe("BrowserChoice", () => {
  it("says which browser runs use and lists every one looked for, found or not", () => {
    render(<BrowserChoice status={readyBrowsers} path="" onChange={vi.fn()} />);
    expect(screen.getByText("Runs use Chromium: /usr/bin/chromium")).toBeTruthy();
    const items = within(screen.getByRole("list", { name: "Browsers looked for, in order" })).getAllByRole("listitem");
    expect(items.map((li) => li.textContent)).toEqual([
      "Google Chrome /opt/google/chrome/chrome not found (not installed)",
      "Microsoft Edge /opt/microsoft/msedge/msedge not found (not installed)",
      "Chromium /usr/bin/chromium found",
      "Playwright's Chromium /home/ada/.cache/ms-playwright/chromium-1248/chrome-linux64/chrome not found (not downloaded)",
    ]);
  });

  it("says when headless runs use the headless shell beside the chosen browser", () => {
    const shell = { kind: "headless-shell" as const, label: "Chromium headless shell", path: "/usr/bin/chromium-headless-shell", found: true };
    render(<BrowserChoice status={{ ...readyBrowsers, headless: shell }} path="" onChange={vi.fn()} />);
    expect(screen.getByRole("status").textContent).toBe(
      "Runs use Chromium: /usr/bin/chromium; headless runs use the Chromium headless shell beside it: /usr/bin/chromium-headless-shell",
    );
  });

  it("picks a found browser, automatic, or a path typed in", () => {
    const onChange = vi.fn();
    const { rerender } = render(<BrowserChoice status={readyBrowsers} path="" onChange={onChange} />);
    const use = screen.getByLabelText("Use");
    expect(within(use).getAllByRole("option").map((o) => o.textContent)).toEqual([
      "Automatic: the first found",
      "Chromium (/usr/bin/chromium)",
      "Another browser (a path)…",
    ]);
    fireEvent.change(use, { target: { value: "/usr/bin/chromium" } });
    expect(onChange).toHaveBeenLastCalledWith("/usr/bin/chromium");
    fireEvent.change(use, { target: { value: "(other)" } });
    fireEvent.change(screen.getByLabelText("Browser path"), { target: { value: "/opt/chrome-beta/chrome" } });
    expect(onChange).toHaveBeenLastCalledWith("/opt/chrome-beta/chrome");
    rerender(<BrowserChoice status={readyBrowsers} path="/opt/chrome-beta/chrome" onChange={onChange} />);
    expect((screen.getByLabelText("Browser path") as HTMLInputElement).value).toBe("/opt/chrome-beta/chrome");
  });
});
