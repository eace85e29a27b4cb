// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Progress } from "../api/types";
import { applyProgress, startLive } from "../state/live";
import { noticeNothingSaved, savesNormally } from "../test/fixtures";
import { LivePanel } from "./LivePanel";

const pending = {
  ...savesNormally.verdicts.gate,
  done: false,
  conditions: savesNormally.verdicts.gate.conditions!.map((c) => (c.id === "record" ? { ...c, done: false, evidence: "no record is committed" } : c)),
};

function panel(events: Progress[]) {
  const live = events.reduce(applyProgress, startLive(["saves-normally"]));
  return <LivePanel live={live} slug="saves-normally" screenshots titleOf={(s) => s} />;
}

describe("LivePanel", () => {
  it("turns the gate's conditions on as check events arrive, with their evidence", () => {
    const started: Progress[] = [
      { run_id: "r1", kind: "attempt-started", slug: "saves-normally", index: 1, total: 1 },
      { run_id: "r1", kind: "step", slug: "saves-normally", step: savesNormally.steps![3], events: savesNormally.events!.slice(0, 4) },
      { run_id: "r1", kind: "check", slug: "saves-normally", check: { gate: pending } },
    ];
    const { rerender } = render(panel(started));
    const record = () => within(screen.getByTestId("condition-record"));
    expect(record().getByText("does not hold")).toBeTruthy();
    expect(screen.getByText("#4 save-requested")).toBeTruthy();

    rerender(
      panel([
        ...started,
        { run_id: "r1", kind: "check", slug: "saves-normally", check: { gate: savesNormally.verdicts.gate } },
        { run_id: "r1", kind: "frame", slug: "saves-normally", frame: "frames/5.png" },
      ]),
    );
    expect(record().getByText("holds")).toBeTruthy();
    expect(record().getByText("1 committed record")).toBeTruthy();
    expect(screen.getByTestId("live-frame").getAttribute("src")).toBe("/media/r1/frames/5.png");
  });

  it("shows a finished attempt's own verdicts", () => {
    const live = [
      { run_id: "r1", kind: "attempt-started", slug: "notice-nothing-saved" },
      { run_id: "r1", kind: "attempt-finished", attempt: noticeNothingSaved },
    ].reduce((s, p) => applyProgress(s, p as Progress), startLive(["notice-nothing-saved"]));
    render(<LivePanel live={live} slug="notice-nothing-saved" screenshots={false} titleOf={(s) => s} />);
    expect(screen.getByText("2 of 6 hold")).toBeTruthy();
    expect(screen.getByText("Screenshots are off; turn them on in Settings to watch the page.")).toBeTruthy();
  });
});
