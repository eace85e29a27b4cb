// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { resolveTheme, storedTheme } from "./theme";

describe("theme", () => {
  it("follows the system unless the user chose", () => {
    expect(resolveTheme("system", true)).toBe("dark");
    expect(resolveTheme("system", false)).toBe("light");
    expect(resolveTheme("light", true)).toBe("light");
    expect(resolveTheme("dark", false)).toBe("dark");
  });

  it("trusts only a known stored choice", () => {
    localStorage.setItem("observatory.theme", "neon");
    expect(storedTheme()).toBe("system");
    localStorage.setItem("observatory.theme", "dark");
    expect(storedTheme()).toBe("dark");
  });
});
