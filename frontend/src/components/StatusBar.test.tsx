// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { StatusBar } from "./StatusBar";

describe("StatusBar", () => {
  it("shows a planned run's place with its bar", () => {
    render(<StatusBar progress={{ at: 2, of: 3, title: "Saves normally" }} message={null} errors={0} waiting={null} />);
    expect(screen.getByTestId("progress").textContent).toBe("attempt 2 of 3Saves normally");
    expect(screen.getByRole("progressbar", { name: "Run progress" })).toBeTruthy();
  });

  it("names the process of a run started elsewhere, and no total when the session knows none", () => {
    render(<StatusBar progress={{ at: 1, of: 0, title: "guarded", elsewhere: "observatory mcp, pid 4242" }} message={null} errors={0} waiting={null} />);
    expect(screen.getByTestId("progress").textContent).toBe("attempt 1guardedstarted elsewhere (observatory mcp, pid 4242)");
    expect(screen.queryByRole("progressbar")).toBeNull();
  });
});
