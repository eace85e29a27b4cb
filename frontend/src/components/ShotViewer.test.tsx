// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Step } from "../api/types";
import { savesNormally } from "../test/fixtures";
import { ShotViewer, type View } from "./ShotViewer";
import { StepFacts } from "./StepFacts";

const viewport = { viewport_width: 1000, viewport_height: 700 };
const base = savesNormally.steps![0];
/** A step that acted on a button, with screenshots. */
const acted: Step = {
  ...base,
  before: { ...base.before, screenshot: "shots/0-before.jpg" },
  after: { ...base.after, screenshot: "shots/0-after.jpg" },
  target_box: { x: 250, y: 70, width: 100, height: 35, ...viewport },
};
/** A step whose target matched nothing, with two candidates. */
const missed: Step = {
  ...acted,
  target_box: undefined,
  error: "button[Reserve slot]: no element matches the target; nearest: button \"Book a slot\" (similarity 0.42)",
  candidates: [
    { role: "button", name: "Book a slot", similarity: 0.42, box: { x: 40, y: 350, width: 200, height: 21, ...viewport } },
    { role: "link", name: "Reserve slots", similarity: 0.35, box: { x: 600, y: 7, width: 90, height: 14, ...viewport } },
  ],
};

function viewer(step: Step, view: View | null) {
  return (
    <ShotViewer runId="r1" step={step} seekMs={0} follow view={view} onView={() => {}} onTime={() => {}} heading={<h3>Step</h3>} facts={null} />
  );
}

/** Loads the shown screenshot as a 1000×700 image. */
function load(name: string) {
  const img = screen.getByRole("img", { name });
  Object.defineProperty(img, "naturalWidth", { value: 1000 });
  Object.defineProperty(img, "naturalHeight", { value: 700 });
  fireEvent.load(img);
}

const place = (el: HTMLElement) => [el.style.left, el.style.top, el.style.width, el.style.height];

describe("ShotViewer's boxes", () => {
  it("draws the acted-on element's box on either page, in percentages of the viewport, labelled as measured before on the page after", () => {
    const { rerender } = render(viewer(acted, "before"));
    expect(screen.queryByTestId("target-box")).toBeNull(); // not before the image has loaded
    load("Before screenshot");
    expect(place(screen.getByTestId("target-box"))).toEqual(["25%", "10%", "10%", "5%"]);
    expect(screen.getByTestId("target-box").textContent).toBe("target");
    rerender(viewer(acted, "after"));
    load("After screenshot");
    expect(place(screen.getByTestId("target-box"))).toEqual(["25%", "10%", "10%", "5%"]);
    expect(screen.getByTestId("target-box").textContent).toBe("target (before)");
  });

  it("shows a screenshot taken at a pixel ratio of 2 at the page's CSS size, its boxes where they were", () => {
    const sharp: Step = { ...acted, before: { ...acted.before, pixel_ratio: 2, screenshot_size: { width: 1000, height: 700 } } };
    render(viewer(sharp, "before"));
    load("Before screenshot"); // 1000×700 image pixels: a 500×350 page at twice its pixels
    const frame = screen.getByTestId("shot-frame");
    expect(frame.style.getPropertyValue("--css-width")).toBe("500px");
    expect(place(screen.getByTestId("target-box"))).toEqual(["25%", "10%", "10%", "5%"]);
  });

  it("shows before and after side by side unless told otherwise, each with its time and boxes, and what changed under them", () => {
    render(viewer(acted, null));
    expect(screen.getByRole("button", { name: "Side by side" }).getAttribute("aria-pressed")).toBe("true");
    load("Before screenshot");
    load("After screenshot");
    const sides = screen.getAllByRole("figure");
    expect(sides.map((f) => f.querySelector("figcaption")!.textContent)).toEqual([`Before at ${acted.before.at_ms} ms `, expect.stringMatching(new RegExp(`^After at ${acted.after.at_ms} ms · `))]);
    expect(sides.map((f) => within(f).getByTestId("target-box").textContent)).toEqual(["target", "target (before)"]);
    expect(screen.getByTestId("shot-diff").textContent).toMatch(/^· (Changed: .+\.|Nothing on the page changed\.)$/);
  });

  it("draws a miss's candidates dashed and labelled on either screenshot", () => {
    render(viewer(missed, "after"));
    load("After screenshot");
    const boxes = screen.getAllByTestId("candidate-box");
    expect(boxes.map((b) => b.textContent)).toEqual(['1 · button "Book a slot"', '2 · link "Reserve slots"']);
    expect(place(boxes[0])).toEqual(["4%", "50%", "20%", "3%"]);
    expect(boxes[1].className).toBe("shot-box candidate");
    expect(screen.getByTestId("shot-frame").querySelector(".shot-boxes")!.getAttribute("aria-hidden")).toBe("true");
  });

  it("hides and shows the boxes with the Boxes toggle", () => {
    render(viewer(acted, "before"));
    load("Before screenshot");
    const toggle = screen.getByRole("button", { name: "Boxes" });
    expect(toggle.getAttribute("aria-pressed")).toBe("true");
    fireEvent.click(toggle);
    expect(toggle.getAttribute("aria-pressed")).toBe("false");
    expect(screen.queryByTestId("target-box")).toBeNull();
    fireEvent.click(toggle);
    expect(screen.getByTestId("target-box")).toBeTruthy();
  });

  it("offers no toggle for a step without boxes", () => {
    render(viewer({ ...acted, target_box: undefined }, "before"));
    expect(screen.queryByRole("button", { name: "Boxes" })).toBeNull();
  });

  it("gives the boxes' layer the image's proportions, whatever the zoom", () => {
    render(viewer(acted, "before"));
    load("Before screenshot");
    expect(screen.getByTestId("shot-frame").style.getPropertyValue("--ratio")).toBe("1000 / 700");
    fireEvent.click(screen.getByRole("button", { name: "200%" }));
    expect(screen.getByTestId("shot-area").className).toBe("shot-area zoom-2");
    expect(place(screen.getByTestId("target-box"))).toEqual(["25%", "10%", "10%", "5%"]);
  });
});

describe("StepFacts", () => {
  it("lists a miss's nearest elements, best first, with their similarity", () => {
    render(<StepFacts step={missed} />);
    const list = screen.getByRole("list", { name: "Nearest elements" });
    expect(within(list).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      'button "Book a slot" (similarity 0.42)',
      'link "Reserve slots" (similarity 0.35)',
    ]);
    fireEvent.click(screen.getByRole("button", { name: "What is a near miss?" }));
    expect(screen.getByRole("note").textContent).toContain("name similarity");
  });

  it("says an observed step has no decision, never a bare “· ,”", () => {
    const observed = { ...missed, provenance: "observed", decision: { class: "", admission: "", reason: "" } } as unknown as typeof missed;
    render(<StepFacts step={observed} />);
    expect(screen.getByTestId("no-decision").textContent).toBe("none: an outside agent took this action, observed in the page");
    expect(document.body.textContent).not.toContain("· ,");
  });
});

describe("ShotViewer without a screenshot", () => {
  const bare: Step = { ...base, before: { ...base.before, screenshot: undefined }, after: { ...base.after, screenshot: undefined } };
  it("says a lean attempt keeps screenshots only where something went wrong", () => {
    render(
      <ShotViewer runId="r1" step={bare} seekMs={0} follow view="before" onView={() => {}} evidence="lean" onTime={() => {}} heading={<h3>Step</h3>} facts={null} />,
    );
    expect(screen.getByText(/recorded at lean evidence, which keeps one only where something went wrong/)).toBeTruthy();
  });
  it("says screenshots were off for a full attempt without them", () => {
    render(viewer(bare, "before"));
    expect(screen.getByText(/screenshots are off in Settings/)).toBeTruthy();
  });
});
