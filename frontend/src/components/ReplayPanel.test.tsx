// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { issueAttempt, lab, replay } from "../test/fixtures";
import { columnsOf } from "../verdicts";
import { ReplayPanel } from "./ReplayPanel";

const columns = columnsOf(lab.columns);

function Harness() {
  const [i, setI] = useState(0);
  return <ReplayPanel title="Notice shown, nothing saved" replay={replay} columns={columns} index={i} onIndex={setI} />;
}

describe("ReplayPanel", () => {
  it("starts at the initial state and shows no verdicts before the last frame", () => {
    render(<Harness />);
    expect(screen.getByText("Frame 1 of 8")).toBeTruthy();
    expect(screen.getByText("Initial state, before any event.")).toBeTruthy();
    expect(screen.queryByRole("region", { name: "Recomputed verdicts" })).toBeNull();
  });

  it("shows the event and the recomputed verdicts, with the disagreement, on the last frame", () => {
    render(<Harness />);
    const slider = screen.getByRole("slider", { name: "Replay frame" });
    fireEvent.change(slider, { target: { value: "7" } });
    expect(screen.getByText("Frame 8 of 8")).toBeTruthy();
    expect(within(screen.getByTestId("replay-event")).getByText("dialog-closed")).toBeTruthy();
    const verdicts = screen.getByRole("region", { name: "Recomputed verdicts" });
    const gate = within(verdicts).getByRole("row", { name: /Completion gate/ });
    expect(within(gate).getAllByRole("cell").map((c) => c.textContent)).toEqual(["not done", "donedisagrees"]);
    const saved = within(verdicts).getByRole("row", { name: /Saved as asked/ });
    expect(within(saved).getAllByRole("cell").map((c) => c.textContent)).toEqual(["no", "no"]);
    const notice = within(verdicts).getByRole("row", { name: /Success notice/ });
    expect(within(notice).getAllByRole("cell").map((c) => c.textContent)).toEqual(["donewrong", "done"]);
  });
});

describe("ReplayPanel state", () => {
  it("renders the rebuilt state as text, lists one per line", () => {
    const withRecord = {
      ...replay,
      frames: [{ index: 0, event: null, gate: replay.recomputed.gate, state: { phase: "completed", dialog_open: false, records: [{ id: 1, title: "<b>Spectral scan</b>", room: "north" }] } }],
    };
    render(<ReplayPanel title="Saves normally" replay={withRecord} columns={columns} index={0} onIndex={() => {}} />);
    const state = screen.getByLabelText("Rebuilt state");
    expect(within(state).getByText("id: 1, title: <b>Spectral scan</b>, room: north")).toBeTruthy();
    expect(within(state).getByText("false")).toBeTruthy();
  });
});

describe("ReplayPanel without an event log", () => {
  it("shows the recomputed conditions without a slider", () => {
    const v = issueAttempt.verdicts;
    const noLog = { frames: [], recorded: v, recomputed: v, disagreements: [] };
    render(<ReplayPanel title="API down" replay={noLog} columns={columnsOf(v)} index={0} onIndex={() => {}} />);
    expect(screen.queryByRole("slider")).toBeNull();
    const gate = screen.getByRole("region", { name: "Recomputed completion gate" });
    expect(within(within(gate).getByTestId("condition-api-closed")).getByText("could not confirm")).toBeTruthy();
    const banner = within(screen.getByRole("region", { name: "Recomputed verdicts" })).getByRole("row", { name: /“Saved” banner/ });
    // The truth could not be confirmed, so the banner's "done" is not wrong.
    expect(within(banner).getAllByRole("cell").map((c) => c.textContent)).toEqual(["done", "done"]);
  });
});
