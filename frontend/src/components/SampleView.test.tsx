// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Sample } from "../api/types";
import { SampleView } from "./SampleView";

describe("SampleView", () => {
  const sample: Sample = {
    at_ms: 10, url: "http://127.0.0.1:1/", dialog_open: false, fields: [], notice: "", alert: "", rows: [],
    form_present: false, form_valid: false, pairs: [],
  };

  it("names each unreadable area with its box, and explains the term", () => {
    render(<SampleView heading="After" sample={{ ...sample, unreadable: [{ kind: "canvas", what: "canvas#board", x: 24, y: 90, w: 400, h: 400 }] }} />);
    expect(screen.getByText("canvas#board").textContent).toBe("canvas#board 400×400 at 24,90");
    expect(screen.getByRole("button", { name: /unreadable area/i })).toBeTruthy();
  });

  it("says none when the page can be read", () => {
    render(<SampleView heading="After" sample={sample} />);
    expect(screen.getByText("Unreadable").closest("div")!.querySelector("dd")!.textContent).toBe("none");
  });
});
