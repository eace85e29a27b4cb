import { describe, expect, it } from "vitest";
import { visibleRows } from "./rows";

describe("visibleRows", () => {
  it("draws the rows in view and a few either side, never past the list", () => {
    expect(visibleRows(0, 400, 10_000, 40)).toEqual([0, 16]);
    expect(visibleRows(100 * 40, 400, 10_000, 40)).toEqual([94, 116]);
    expect(visibleRows(0, 400, 3, 40)).toEqual([0, 3]);
    expect(visibleRows(500 * 40, 400, 100, 40)).toEqual([84, 100]); // scrolled before the list shrank
  });
});
