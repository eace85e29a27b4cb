import { describe, expect, it } from "vitest";
import type { Sample, Step } from "../api/types";
import { miscapture } from "./capture";

const vp = { width: 1000, height: 700 };

const sample = (extra: Partial<Sample> = {}): Sample => ({
  at_ms: 0, url: "http://127.0.0.1/", dialog_open: false, fields: null, notice: "", alert: "", rows: null,
  form_present: false, form_valid: false, pairs: null, viewport: vp, screenshot: "a.jpg", screenshot_size: vp, ...extra,
});

const step = (extra: Partial<Step> = {}): Step => ({
  index: 0, action: { id: "a", description: "Click", kind: "click", target: { role: "button", name: "Go" } },
  decision: { class: "prepare", admission: "allow", reason: "" }, before: sample(), after: sample(), distance: 0,
  start_ms: 0, duration_ms: 1, target_box: { x: 10, y: 10, width: 50, height: 20, viewport_width: 1000, viewport_height: 700 }, ...extra,
} as Step);

describe("miscapture", () => {
  it("passes a step captured at the attempt's viewport, and at twice its pixels when the pixel ratio says 2", () => {
    expect(miscapture(step(), vp)).toBeNull();
    expect(miscapture(step({ after: sample({ screenshot_size: { width: 2000, height: 1400 }, pixel_ratio: 2 }) }), vp)).toBeNull();
  });
  it("names a screenshot whose size is not the viewport at its pixel ratio", () => {
    expect(miscapture(step({ after: sample({ screenshot_size: { width: 2000, height: 1400 } }) }), vp)).toBe(
      "The screenshot after this step is 2000×1400, not the attempt's 1000×700.",
    );
    expect(miscapture(step({ after: sample({ screenshot_size: { width: 1000, height: 700 }, pixel_ratio: 2 }) }), vp)).toBe(
      "The screenshot after this step is 1000×700, not the attempt's 1000×700 at a pixel ratio of 2.",
    );
  });
  it("says nothing when sizes were not recorded", () => {
    expect(miscapture(step(), undefined)).toBeNull();
    expect(miscapture(step({ before: sample({ viewport: undefined, screenshot_size: undefined }), target_box: undefined }), vp)).toBeNull();
  });
  it("names a sample read at another size", () => {
    expect(miscapture(step({ after: sample({ viewport: { width: 640, height: 448 } }) }), vp)).toBe(
      "The page after this step was read at 640×448, not the attempt's 1000×700: what it shows may not be what the attempt saw.",
    );
  });
  it("names a screenshot of another shape", () => {
    expect(miscapture(step({ before: sample({ screenshot_size: { width: 1000, height: 448 } }) }), vp)).toMatch(/screenshot before this step is 1000×448/);
  });
  it("names a box measured in another viewport", () => {
    const b = { x: 1, y: 1, width: 5, height: 5, viewport_width: 640, viewport_height: 448 };
    expect(miscapture(step({ target_box: b }), vp)).toMatch(/measured at 640×448, not the attempt's 1000×700/);
  });
});
