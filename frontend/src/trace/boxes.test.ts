import { describe, expect, it } from "vitest";
import type { Step } from "../api/types";
import { savesNormally } from "../test/fixtures";
import { boxesOf, candidateText, place, placeLabel, type Rect } from "./boxes";

const view = { viewport_width: 1000, viewport_height: 700 };
const step: Step = {
  ...savesNormally.steps![0],
  target_box: { x: 250, y: 70, width: 100, height: 35, ...view },
  candidates: [{ role: "button", name: 'Book "a" slot', similarity: 0.4166, box: { x: 40, y: 350, width: 200, height: 7, ...view } }],
};

describe("boxes", () => {
  it("places a box as percentages of its viewport", () => {
    expect(place(step.target_box!)).toEqual({ left: "25%", top: "10%", width: "10%", height: "5%" });
  });

  it("draws the target and a miss's candidates on both screenshots, the target after labelled as measured before", () => {
    expect(boxesOf(step, "before").map((b) => [b.kind, b.label, b.left, b.top])).toEqual([
      ["target", "target", "25%", "10%"],
      ["candidate", '1 · button "Book "a" slot"', "4%", "50%"],
    ]);
    expect(boxesOf(step, "after").map((b) => [b.kind, b.label])).toEqual([
      ["target", "target (before)"],
      ["candidate", '1 · button "Book "a" slot"'],
    ]);
    expect(boxesOf(savesNormally.steps![0], "before")).toEqual([]);
  });

  it("names a candidate as the step's error does", () => {
    expect(candidateText(step.candidates![0])).toBe('button "Book \\"a\\" slot" (similarity 0.42)');
  });
});

describe("placeLabel", () => {
  const picture = { w: 400, h: 280 };
  const label = { w: 60, h: 16 };
  const hits = (box: Rect, at: { x: number; y: number }) =>
    at.x < box.x + box.w && box.x < at.x + label.w && at.y < box.y + box.h && box.y < at.y + label.h;
  const inside = (at: { x: number; y: number }) => at.x >= 0 && at.y >= 0 && at.x + label.w <= picture.w && at.y + label.h <= picture.h;

  it.each<[string, Rect, { x: number; y: number }]>([
    ["above, from its left edge", { x: 100, y: 100, w: 40, h: 12 }, { x: 100, y: 82 }],
    ["below at the picture's top", { x: 100, y: 4, w: 40, h: 12 }, { x: 100, y: 18 }],
    ["ending at its right edge in the right half", { x: 300, y: 100, w: 40, h: 12 }, { x: 280, y: 82 }],
    ["moved back inside at the right edge", { x: 380, y: 100, w: 20, h: 12 }, { x: 340, y: 82 }],
    ["after it when it is as tall as the picture", { x: 10, y: 0, w: 40, h: 280 }, { x: 52, y: 0 }],
    ["before it when it also reaches the right", { x: 200, y: 0, w: 200, h: 280 }, { x: 138, y: 0 }],
  ])("puts the label %s", (_, box, want) => {
    const at = placeLabel(box, label, picture);
    expect(at).toEqual(want);
    expect(hits(box, at)).toBe(false);
    expect(inside(at)).toBe(true);
  });

  it("never covers a box that leaves room on some side, wherever it lies", () => {
    for (let x = 0; x <= 360; x += 20)
      for (let y = 0; y <= 268; y += 12) {
        const box = { x, y, w: 40, h: 12 };
        const at = placeLabel(box, label, picture);
        expect(hits(box, at), `box at ${x},${y}`).toBe(false);
        expect(inside(at), `box at ${x},${y}`).toBe(true);
      }
  });

  it("keeps clear of the other boxes and labels where a side lets it", () => {
    const box = { x: 100, y: 100, w: 40, h: 12 };
    const above = { x: 90, y: 70, w: 80, h: 28 }; // a near miss just above
    const at = placeLabel(box, label, picture, [above]);
    expect(at).toEqual({ x: 100, y: 114 }); // below instead
    expect(hits(above, at)).toBe(false);
    // Hemmed in on every side: still never over its own box.
    const around = [above, { x: 90, y: 112, w: 80, h: 30 }, { x: 142, y: 90, w: 80, h: 40 }, { x: 20, y: 90, w: 78, h: 40 }];
    expect(hits(box, placeLabel(box, label, picture, around))).toBe(false);
  });

  it("covers the least it can of a box that leaves no side room", () => {
    const box = { x: 0, y: 10, w: 400, h: 265 }; // 10 px free above it, 5 px below
    const covered = (at: { x: number; y: number }) =>
      Math.max(0, Math.min(at.x + label.w, box.x + box.w) - Math.max(at.x, box.x)) * Math.max(0, Math.min(at.y + label.h, box.y + box.h) - Math.max(at.y, box.y));
    const at = placeLabel(box, label, picture);
    expect(inside(at)).toBe(true);
    expect(at).toEqual({ x: 0, y: 0 }); // at the top, over 6 of its 16 rows
    expect(covered(at)).toBe(6 * label.w);
    for (let x = 0; x + label.w <= picture.w; x += 10)
      for (let y = 0; y + label.h <= picture.h; y++) expect(covered(at), `label at ${x},${y}`).toBeLessThanOrEqual(covered({ x, y }));
    // A box that fills the picture is covered wherever the label goes: it still stays in the picture.
    expect(inside(placeLabel({ x: 0, y: 0, w: 400, h: 280 }, label, picture))).toBe(true);
  });
});
