import { describe, expect, it } from "vitest";
import { cardDate } from "./cardDate";

const local = (y: number, m: number, d: number, h: number, min: number) => new Date(y, m - 1, d, h, min).toISOString();

describe("cardDate", () => {
  const now = new Date(2026, 11, 27, 9, 0);
  it("shows the time alone for today", () => {
    expect(cardDate(local(2026, 12, 27, 8, 5), now, "en-US")).toBe("8:05 AM");
  });
  it("shows the day and the minute this year, without the year", () => {
    expect(cardDate(local(2026, 12, 26, 10, 7), now, "en-US")).toBe("12/26, 10:07 AM");
  });
  it("shows the day alone before this year", () => {
    expect(cardDate(local(2025, 12, 26, 10, 7), now, "en-US")).toBe("12/26/25");
  });
  it("never grows past the card's widest case in en-US", () => {
    for (const iso of [local(2026, 1, 1, 0, 0), local(2026, 12, 31, 23, 59), local(1999, 12, 31, 12, 59)]) {
      expect(cardDate(iso, now, "en-US").length).toBeLessThanOrEqual("12/26, 10:07 AM".length);
    }
  });
  it("says so when the date cannot be read", () => {
    expect(cardDate("not a date", now)).toBe("unknown date");
  });
});
