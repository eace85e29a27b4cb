// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Mark } from "../trace/timeline";
import { StripPreview, StripThumb } from "./StripShot";

const step: Mark = { kind: "step", at_ms: 41, label: "Step 2: Fill task title", step: 1, frame: 1, gate: false };

describe("StripThumb and StripPreview", () => {
  it("show the step's screenshot from the run's media folder, the preview larger with its name", () => {
    const { container } = render(
      <>
        <StripThumb runId="r1" shot="shots/1-after.jpg" />
        <StripPreview runId="r1" shot="shots/1-after.jpg" mark={{ ...step, shot: "shots/1-after.jpg" }} duration_ms={36} left={0} width={200} />
      </>,
    );
    expect([...container.querySelectorAll("img")].map((i) => i.getAttribute("src"))).toEqual(["/media/r1/shots/1-after.jpg", "/media/r1/shots/1-after.jpg"]);
    expect(screen.getByTestId("strip-preview").textContent).toBe("Step 2: Fill task title 41 ms · 36 ms long · gate not done");
  });

  it("say honestly that a lean attempt's step kept no screenshot", () => {
    const { container } = render(
      <>
        <StripThumb runId="r1" evidence="lean" />
        <StripPreview runId="r1" evidence="lean" mark={step} duration_ms={36} left={0} width={200} />
      </>,
    );
    expect(container.querySelector("img")).toBeNull();
    const why = "No screenshot here: this attempt was recorded at lean evidence, which keeps one only where something went wrong (a failed or held step, the last look).";
    expect(screen.getByText("no shot").getAttribute("title")).toBe(why);
    expect(within(screen.getByTestId("strip-preview")).getByText(why).tagName).toBe("P");
  });

  it("say a word, not a broken image, when the file is not in the media folder", () => {
    const { container } = render(<StripThumb runId="r1" shot="shots/gone.jpg" />);
    fireEvent.error(container.querySelector("img")!);
    expect(container.querySelector("img")).toBeNull();
    expect(screen.getByText("no file").getAttribute("title")).toMatch(/^Screenshot: not available/);
  });

  it("show an event's words alone", () => {
    render(<StripPreview runId="r1" mark={{ ...step, kind: "event", label: "#1 dialog-opened", at_ms: 40 }} left={0} width={200} />);
    expect(screen.getByTestId("strip-preview").querySelector("img")).toBeNull();
    expect(screen.getByTestId("strip-preview").textContent).toBe("#1 dialog-opened 40 ms · gate not done");
  });
});
