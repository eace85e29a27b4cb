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

  it("says in words why a condition fails and shows its CEL only on demand", () => {
    const check = 'body.records.exists(r, r.room == "north")';
    const conditions = [
      { id: "room", label: "Room matches", done: false, evidence: 'status 200: none of the 1 items of records matches; the closest, #1: room is "south", want "north"', check },
      { id: "coded", label: "Written in code", done: true, evidence: "as wanted" },
    ];
    render(<GateChecklist heading="Completion gate" conditions={conditions} />);
    const room = within(screen.getByTestId("condition-room"));
    expect(room.getByText(/room is "south", want "north"/)).toBeTruthy();
    const disclosure = screen.getByTestId("check-room") as HTMLDetailsElement;
    expect(disclosure.open).toBe(false);
    expect(room.getByText("show condition").tagName).toBe("SUMMARY");
    room.getByText("show condition").click();
    expect(disclosure.open).toBe(true);
    expect(within(disclosure).getByText(check).tagName).toBe("CODE");
    expect(screen.queryByTestId("check-coded")).toBeNull();
  });
});
