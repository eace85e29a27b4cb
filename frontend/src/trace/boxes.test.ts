import { describe, expect, it } from "vitest";
import type { Step } from "../api/types";
import { savesNormally } from "../test/fixtures";
import { boxesOf, candidateText, place } from "./boxes";

const view = { viewport_width: 1000, viewport_height: 700 };
const step: Step = {
  ...savesNormally.steps![0],
  target_box: { x: 250, y: 70, width: 100, height: 35, ...view },
  candidates: [{ role: "button", name: 'Book "a" slot', similarity: 0.4166, box: { x: 40, y: 350, width: 200, height: 7, ...view } }],
};

describe("boxes", () => {
  it("places a box as percentages of its viewport", () => {
    expect(place(step.target_box!)).toEqual({ left: "25%", top: "10%", width: "10%", height: "5%", below: false, end: false });
    expect(place({ ...step.target_box!, y: 4 }).below).toBe(true);
    expect(place({ ...step.target_box!, x: 900 }).end).toBe(true);
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
