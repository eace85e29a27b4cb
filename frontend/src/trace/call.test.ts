import { describe, expect, it } from "vitest";
import type { Step } from "../api/types";
import { savesNormally } from "../test/fixtures";
import { callLog, locatorText, usedLocator } from "./call";

const base = savesNormally.steps![0];

describe("a step's call", () => {
  it("writes a target as Playwright's locators, its frames and container first", () => {
    expect(locatorText({ role: "button", name: "Save" })).toBe('page.getByRole("button", { name: "Save" })');
    expect(locatorText({ label: "Title" })).toBe('page.getByLabel("Title")');
    expect(locatorText({ test_id: "go" })).toBe('page.getByTestId("go")');
    expect(locatorText({ css: "#x" })).toBe('page.locator("#x")');
    expect(locatorText({ role: "button", name: "Pay", frame: [{ title: "Card" }], within: { role: "dialog", name: "Checkout" } })).toBe(
      'page.frameLocator("iframe[title=\\"Card\\"]").getByRole("dialog", { name: "Checkout" }).getByRole("button", { name: "Pay" })',
    );
    expect(locatorText({})).toBe("");
  });

  it("names the alias when the alias matched", () => {
    const step: Step = { ...base, action: { ...base.action, target: { role: "button", name: "Reserve slot", alias: "Book a slot" } }, resolved: "Book a slot" };
    expect(usedLocator(step)).toBe('page.getByRole("button", { name: "Book a slot" })');
    expect(callLog(step)).toContain("the target matched by its alias “Book a slot”");
  });

  it("logs the decision first and how the step ended last", () => {
    const failed: Step = { ...base, error: "no element matches", requests: [], console: [] };
    const log = callLog(failed);
    expect(log[0]).toBe(`${base.decision.admission}: ${base.decision.reason}`);
    expect(log).toContain("0 requests, 0 console messages, 0 page errors");
    expect(log[log.length - 1]).toBe("failed: no element matches");
  });
});
