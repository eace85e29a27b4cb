// @vitest-environment jsdom
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Media } from "./Media";

describe("Media", () => {
  it("points at the run's media folder and says so when the file is missing", () => {
    render(<Media runId="run 1" path="shots/step-1 after.png" kind="image" label="After screenshot" />);
    const img = screen.getByRole("img", { name: "After screenshot" });
    expect(img.getAttribute("src")).toBe("/media/run%201/shots/step-1%20after.png");
    fireEvent.error(img);
    expect(screen.queryByRole("img")).toBeNull();
    expect(screen.getByText("After screenshot: not available (a run file carries no media; import a bundle to keep it).")).toBeTruthy();
  });
});
