// @vitest-environment jsdom
import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { lab, noticeNothingSaved, plan } from "../test/fixtures";
import { columnsOf } from "../verdicts";
import { TraceViewer } from "./TraceViewer";

function Harness({ video }: { video?: string }) {
  const [i, setI] = useState(0);
  const attempt = video ? { ...noticeNothingSaved, video } : noticeNothingSaved;
  return <TraceViewer title="Notice shown, nothing saved" plan={plan} columns={columnsOf(lab.columns)} steps={noticeNothingSaved.steps!} attempt={attempt} runId="r1" current={i} onStep={setI} />;
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

  describe("with a recorded video", () => {
    /** The video element, made seekable as a loaded video is (jsdom loads no media). */
    function loadedVideo() {
      const v = screen.getByTestId("attempt-video") as HTMLVideoElement;
      Object.defineProperty(v, "readyState", { value: 1, configurable: true });
      let t = 0;
      Object.defineProperty(v, "currentTime", { get: () => t, set: (x: number) => (t = x), configurable: true });
      fireEvent.loadedMetadata(v);
      return v;
    }
    const playing = () => screen.queryAllByText("in video").map((el) => el.closest("li")!.textContent);

    it("shows it beside the steps, open, and collapses it", () => {
      render(<Harness video="video.webm" />);
      const v = screen.getByLabelText("Recorded video", { selector: "video" });
      expect(v.getAttribute("src")).toBe("/media/r1/video.webm");
      const toggle = screen.getByRole("button", { name: "Recorded video" });
      expect(toggle.getAttribute("aria-expanded")).toBe("true");
      fireEvent.click(toggle);
      expect(screen.queryByTestId("attempt-video")).toBeNull();
      expect(toggle.getAttribute("aria-expanded")).toBe("false");
    });

    it("seeks to the chosen step's start, by keys, buttons and the observed trace", () => {
      render(<Harness video="video.webm" />);
      const v = loadedVideo();
      expect(v.currentTime).toBe(0); // step 1 starts at 0 ms
      fireEvent.keyDown(document.body, { key: "End" });
      expect(v.currentTime).toBe(0.131);
      fireEvent.click(screen.getByRole("button", { name: "Previous step" }));
      expect(v.currentTime).toBe(0.102);
      fireEvent.click(screen.getByRole("button", { name: /^Choose a room/ }));
      expect(v.currentTime).toBe(0.077);
    });

    it("marks the step the playing video is in", () => {
      render(<Harness video="video.webm" />);
      const v = loadedVideo();
      expect(playing()).toEqual([]);
      v.currentTime = 0.2;
      fireEvent.timeUpdate(v);
      expect(playing()).toEqual(["Verify committed reservation 524 msin video"]);
      expect(heading()).toBe("Step 1 of 5: Open reservation dialog"); // playing does not choose
      v.currentTime = 0.05;
      fireEvent.timeUpdate(v);
      expect(playing()).toEqual(["Fill task title 36 msin video"]);
      v.currentTime = 9;
      fireEvent.timeUpdate(v);
      expect(playing()).toEqual([]);
    });
  });
});
