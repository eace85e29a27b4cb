// @vitest-environment jsdom
import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { noticeNothingSaved, plan } from "../test/fixtures";
import { TraceViewer } from "./TraceViewer";

function Harness() {
  const [i, setI] = useState(0);
  return (
    <TraceViewer title="Notice shown, nothing saved" plan={plan} steps={noticeNothingSaved.steps!} attempt={noticeNothingSaved} runId="r1" current={i} onStep={setI} />
  );
}

const heading = () => screen.getByTestId("step-heading").textContent;

describe("TraceViewer", () => {
  it("steps with the arrow keys, Home and End, and the buttons", () => {
    render(<Harness />);
    expect(heading()).toBe("Step 1 of 5: Open reservation dialog");
    fireEvent.keyDown(document.body, { key: "ArrowRight" });
    expect(heading()).toBe("Step 2 of 5: Fill task title");
    expect(screen.getByText("~ textbox[Reservation title]: empty → “Spectral scan”")).toBeTruthy();
    fireEvent.keyDown(document.body, { key: "End" });
    expect(heading()).toBe("Step 5 of 5: Verify committed reservation");
    fireEvent.keyDown(document.body, { key: "ArrowRight" });
    expect(heading()).toBe("Step 5 of 5: Verify committed reservation");
    expect(screen.getByRole("button", { name: "Next step" })).toHaveProperty("disabled", true);
    fireEvent.keyDown(document.body, { key: "ArrowLeft" });
    expect(heading()).toBe("Step 4 of 5: Submit reservation form");
    fireEvent.keyDown(document.body, { key: "Home" });
    expect(heading()).toBe("Step 1 of 5: Open reservation dialog");
    fireEvent.click(screen.getByRole("button", { name: "Next step" }));
    expect(heading()).toBe("Step 2 of 5: Fill task title");
  });

  it("leaves arrow keys in form controls alone", () => {
    render(
      <>
        <input aria-label="elsewhere" />
        <Harness />
      </>,
    );
    fireEvent.keyDown(screen.getByLabelText("elsewhere"), { key: "ArrowRight" });
    expect(heading()).toBe("Step 1 of 5: Open reservation dialog");
  });

  it("shows the step's timings and distance, and the verdicts with the gate's evidence", () => {
    render(<Harness />);
    fireEvent.keyDown(document.body, { key: "End" });
    expect(screen.getByTestId("distance").textContent).toBe("0.667");
    expect(screen.getByText("524 ms", { selector: "dd" })).toBeTruthy();
    expect(screen.getByText("the store holds no record")).toBeTruthy();
    expect(screen.getAllByText("wrong").length).toBe(2);
  });
});
