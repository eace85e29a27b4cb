import { describe, expect, it } from "vitest";
import type { Sample } from "../api/types";
import { noticeNothingSaved, savesNormally } from "../test/fixtures";
import { diffSamples, diffSummary, jaccardDistance } from "./diff";

const blank: Sample = {
  at_ms: 0, url: "", dialog_open: false, fields: null, notice: "", alert: "", rows: null,
  form_present: false, form_valid: false, pairs: null,
};

describe("jaccardDistance", () => {
  const a = { role: "button", name: "A" };
  const b = { role: "button", name: "B" };
  const c = { role: "dialog", name: "A" };
  it.each([
    { name: "both empty", x: [], y: [], want: 0 },
    { name: "nulls", x: null, y: null, want: 0 },
    { name: "identical", x: [a, b], y: [b, a], want: 0 },
    { name: "disjoint", x: [a], y: [b], want: 1 },
    { name: "one of three shared", x: [a, b], y: [b, c], want: 1 - 1 / 3 },
    { name: "duplicates count once", x: [a, a, b], y: [a], want: 0.5 },
    { name: "role and name both matter", x: [a], y: [c], want: 1 },
  ])("$name", ({ x, y, want }) => {
    expect(jaccardDistance(x, y)).toBeCloseTo(want, 10);
  });
});

describe("diffSamples", () => {
  it("reports nothing for identical samples", () => {
    const d = diffSamples(savesNormally.steps![1].after, savesNormally.steps![1].after);
    expect(d.empty).toBe(true);
    expect(d.distance).toBe(0);
  });

  it("sees the dialog open: pairs and fields appear", () => {
    const s = savesNormally.steps![0];
    const d = diffSamples(s.before, s.after);
    expect(d.dialog).toEqual({ before: false, after: true });
    expect(d.pairsAdded.map((p) => `${p.role}[${p.name}]`)).toEqual([
      "dialog[New reservation]", "textbox[Reservation title]", "combobox[Room]", "button[Save reservation]", "button[Cancel]",
    ]);
    expect(d.pairsRemoved).toEqual([]);
    expect(d.fields).toEqual([
      { role: "textbox", name: "Reservation title", before: null, after: "" },
      { role: "combobox", name: "Room", before: null, after: "" },
    ]);
    expect(d.distance).toBeCloseTo(s.distance, 10);
  });

  it("sees a typed value and the form turning valid", () => {
    const s = savesNormally.steps![1];
    const d = diffSamples(s.before, s.after);
    expect(d.fields).toEqual([{ role: "textbox", name: "Reservation title", before: "", after: "Spectral scan" }]);
    expect(d.formValid).toEqual({ before: false, after: true });
    expect(d.pairsAdded).toEqual([]);
    expect(d.empty).toBe(false);
  });

  it("sees the notice and the committed row after a normal save", () => {
    const s = savesNormally.steps![4];
    const d = diffSamples(s.before, s.after);
    expect(d.notice).toEqual({ before: "", after: "Reservation saved" });
    expect(d.rowsAdded).toEqual([["Spectral scan", "North lab", "Confirmed"]]);
    expect(d.rowsRemoved).toEqual([]);
    expect(d.pairsAdded).toEqual([{ role: "status", name: "Reservation saved" }]);
    expect(d.fields.map((f) => f.after)).toEqual([null, null]);
  });

  it("sees a notice without any new row when nothing was saved", () => {
    const s = noticeNothingSaved.steps![4];
    const d = diffSamples(s.before, s.after);
    expect(d.notice?.after).toBe("Reservation saved");
    expect(d.rowsAdded).toEqual([]);
  });

  it("treats rows as a multiset and reports alerts", () => {
    const row = ["Spectral scan", "North lab", "Confirmed"];
    const d = diffSamples({ ...blank, rows: [row] }, { ...blank, rows: [row, row], alert: "Save refused" });
    expect(d.rowsAdded).toEqual([row]);
    expect(d.alert).toEqual({ before: "", after: "Save refused" });
    const back = diffSamples({ ...blank, rows: [row, row] }, { ...blank, rows: [row] });
    expect(back.rowsRemoved).toEqual([row]);
  });
});

describe("diffSummary", () => {
  it("says nothing changed for identical samples", () => {
    expect(diffSummary(diffSamples(blank, blank))).toBe("Nothing on the page changed.");
  });

  it("names the dialog, notice and form by their new state, then counts the rest", () => {
    const before: Sample = { ...blank, dialog_open: true, form_present: true, form_valid: true, fields: [{ role: "textbox", name: "Title", value: "" }] };
    const after: Sample = {
      ...blank,
      notice: "Reservation saved",
      rows: [["Spectral scan", "north"]],
      pairs: [{ role: "row", name: "Spectral scan" }],
    };
    expect(diffSummary(diffSamples(before, after))).toBe(
      "Changed: dialog closed · notice “Reservation saved” · form not valid · 1 field changed · +1 row · elements +1 −0.",
    );
  });
});
