// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { issueAttempt } from "../test/fixtures";
import { GateChecklist } from "./GateChecklist";

describe("GateChecklist", () => {
  it("shows a condition the oracle could not answer apart from one that fails, with each raw answer in full", () => {
    render(<GateChecklist heading="Completion gate" conditions={issueAttempt.verdicts.gate.conditions} answers={issueAttempt.answers} />);
    const api = within(screen.getByTestId("condition-api-closed"));
    expect(api.getByText("could not confirm")).toBeTruthy();
    expect(api.queryByText("does not hold")).toBeNull();
    expect(api.getByText("no answer: dial tcp 127.0.0.1:9000: connection refused")).toBeTruthy();
    const page = within(screen.getByTestId("condition-page-closed"));
    expect(page.getByText("holds")).toBeTruthy();
    expect(page.getByTestId("answer-page-closed").querySelector("pre")!.textContent).toBe(
      JSON.stringify({ text_present: "Closed", url: "http://127.0.0.1:9000/issues/7" }, null, 2),
    );
    expect(screen.getByText("1 of 2 hold")).toBeTruthy();
  });
});
