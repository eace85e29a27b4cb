// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Attempt, Replay } from "../api/types";
import { issueAttempt, noticeNothingSaved, plan, replay, savesNormally } from "../test/fixtures";
import { headerOf, summaries } from "../trace/summary";
import { columnsOf } from "../verdicts";
import { TraceViewer, type LiveView } from "./TraceViewer";

/** noticeNothingSaved with a screenshot before and after every step. */
const withShots: Attempt = {
  ...noticeNothingSaved,
  steps: noticeNothingSaved.steps!.map((s, k) => ({
    ...s,
    before: { ...s.before, screenshot: `shots/${k}-before.jpg` },
    after: { ...s.after, screenshot: `shots/${k}-after.jpg` },
  })),
};

/**
 * The trace of attempt at its chosen step, every step held whole unless unread says otherwise,
 * and summarised unless unlisted does.
 */
function Harness({ attempt = withShots, video, live, replay, unread, unlisted, onSaveMedia }: { attempt?: Attempt; video?: string; live?: LiveView; replay?: Replay; unread?: boolean; unlisted?: boolean; onSaveMedia?(name: string): void }) {
  const [i, setI] = useState(0);
  const a = video ? { ...attempt, video } : attempt;
  return (
    <TraceViewer
      title={a.title}
      plan={a.plan ?? plan}
      columns={columnsOf(a.verdicts)}
      steps={unlisted ? null : summaries(a.steps!)}
      count={a.steps!.length}
      detail={unread ? undefined : a.steps![i]}
      attempt={live ? undefined : headerOf(a)}
      live={live}
      runId="r1"
      replay={replay}
      current={i}
      onStep={setI}
      onSaveMedia={onSaveMedia}
    />
  );
}

const heading = () => screen.getByTestId("step-heading").textContent;
/** A timeline mark's accessible name: its label and the words for screen readers (the rest is aria-hidden). */
const markName = (o: Element) => `${o.querySelector(".mark-label")!.textContent}${[...o.querySelectorAll(".sr-only")].at(-1)!.textContent}`;
const tab = (name: RegExp | string) => fireEvent.click(screen.getByRole("tab", { name }));

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe("TraceViewer", () => {
  it("offers to save the Playwright trace only once the file is there", async () => {
    const asked: string[] = [];
    vi.stubGlobal("fetch", (url: string, init: RequestInit) => {
      asked.push(`${init.method} ${url}`);
      return Promise.resolve(new Response(null, { status: url.includes("kept") ? 200 : 404 }));
    });
    const saved: string[] = [];
    const { unmount } = render(<Harness attempt={{ ...withShots, trace: "gone.trace.zip" }} onSaveMedia={(n) => saved.push(n)} />);
    await vi.waitFor(() => expect(asked).toEqual(["HEAD /media/r1/gone.trace.zip"]));
    await Promise.resolve();
    expect(screen.queryByRole("button", { name: "Save Playwright trace" })).toBeNull();
    unmount();
    render(<Harness attempt={{ ...withShots, trace: "kept.trace.zip" }} onSaveMedia={(n) => saved.push(n)} />);
    fireEvent.click(await screen.findByRole("button", { name: "Save Playwright trace" }));
    expect(saved).toEqual(["kept.trace.zip"]);
  });

  it("steps with the arrow keys, Home and End, and the buttons", () => {
    render(<Harness />);
    expect(heading()).toBe("Step 1 of 5: Open reservation dialog");
    fireEvent.keyDown(document.body, { key: "ArrowRight" });
    expect(heading()).toBe("Step 2 of 5: Fill task title");
    tab("Diff");
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

  it("draws the step list, the heading and the timeline from the summaries while the step is read whole", () => {
    render(<Harness unread />);
    expect(heading()).toBe("Step 1 of 5: Open reservation dialog");
    expect(within(screen.getByRole("navigation", { name: "Steps" })).getAllByRole("button")).toHaveLength(5);
    expect(screen.getAllByText("Reading step 1…").length).toBeGreaterThan(0);
    expect(screen.queryByTestId("distance")).toBeNull();
    fireEvent.keyDown(document.body, { key: "ArrowRight" });
    expect(heading()).toBe("Step 2 of 5: Fill task title");
    expect(screen.getAllByText("Reading step 2…").length).toBeGreaterThan(0);
  });

  it("draws the step read whole, and steps, while a long attempt's summaries are read", () => {
    render(<Harness unlisted />);
    expect(heading()).toBe("Step 1 of 5: Open reservation dialog");
    expect(screen.getByText("Listing the 5 steps…")).toBeTruthy();
    expect(screen.getByRole("img", { name: "After screenshot" }).getAttribute("src")).toBe("/media/r1/shots/0-after.jpg");
    fireEvent.keyDown(document.body, { key: "End" });
    expect(heading()).toBe("Step 5 of 5: Verify committed reservation");
    expect(screen.getByTestId("distance").textContent).toBe("0.667");
  });

  it("leaves arrow keys in form controls, tabs and splitters alone", () => {
    render(
      <>
        <input aria-label="elsewhere" />
        <Harness />
      </>,
    );
    fireEvent.keyDown(screen.getByLabelText("elsewhere"), { key: "ArrowRight" });
    fireEvent.keyDown(screen.getByRole("tab", { name: "Gate" }), { key: "ArrowRight" });
    expect(screen.getByRole("tab", { name: "Verdicts" }).getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(screen.getByRole("separator", { name: "Resize the steps list" }), { key: "ArrowRight" });
    expect(heading()).toBe("Step 1 of 5: Open reservation dialog");
  });

  it("steps with the arrow keys once a tab was clicked: the click gives the focus back", () => {
    render(<Harness />);
    const network = screen.getByRole("tab", { name: /^Network/ });
    network.focus();
    fireEvent.click(network, { detail: 1 });
    expect(network.getAttribute("aria-selected")).toBe("true");
    expect(document.activeElement).not.toBe(network);
    fireEvent.keyDown(document.activeElement ?? document.body, { key: "ArrowRight" });
    expect(heading()).toBe("Step 2 of 5: Fill task title");
  });

  it("lists each step with its status, class, admission and duration, what failed in it, and how the attempt ended", () => {
    render(<Harness />);
    const steps = within(screen.getByRole("navigation", { name: "Steps" })).getAllByRole("button");
    expect(steps.map((b) => b.textContent)).toEqual([
      "✓Open reservation dialogprepare · allow · 41 ms",
      "✓Fill task titleprepare · allow · 36 ms",
      "✓Choose a roomprepare · allow · 25 ms",
      "!Submit reservation formcommit · allow · 29 ms",
      "✗Verify committed reservationcheck failed · observe · allow · 524 ms",
    ]);
    expect(within(steps[3]).getByRole("img").getAttribute("aria-label")).toBe("nothing changed");
    expect(within(steps[4]).getByRole("img").getAttribute("aria-label")).toBe("check failed");
    expect(screen.getByTestId("ended").textContent).toBe("Ended failed: a success notice appeared without a committed record");
  });

  it("keeps the browser's log collapsed beside the one-line reason, and shows none without one", () => {
    const log = "Browser logs:\n\n<launching> /usr/bin/chromium --headless\n[pid=4242] <process did exit: exitCode=null, signal=SIGKILL>";
    const killed: Attempt = { ...withShots, terminal: "failed", reason: "click button[Save]: the browser is gone: Chromium exited", browser_log: log };
    const { unmount } = render(<Harness attempt={killed} />);
    expect(screen.getByTestId("ended").textContent).toBe("Ended failed: click button[Save]: the browser is gone: Chromium exited");
    const details = screen.getByText("Browser log").closest("details")!;
    expect(details.open).toBe(false);
    expect(within(details).getByText("(4 lines)")).toBeTruthy();
    fireEvent.click(within(details).getByText("Browser log"));
    expect(details.open).toBe(true);
    expect(screen.getByLabelText("Browser log").textContent).toBe(log);
    unmount();
    render(<Harness />);
    expect(screen.queryByText("Browser log")).toBeNull();
  });

  it("shows the step's facts, the gate's evidence and the verdicts marked wrong", () => {
    render(<Harness />);
    fireEvent.keyDown(document.body, { key: "End" });
    expect(screen.getByTestId("distance").textContent).toBe("0.667");
    expect(screen.getByText("524 ms", { selector: "dd" })).toBeTruthy();
    expect(screen.getByText("the store holds no record")).toBeTruthy();
    tab("Verdicts");
    expect(screen.getAllByText("wrong").length).toBe(2);
  });

  it("shows the screenshot before or after, zoomed", () => {
    render(<Harness />);
    fireEvent.keyDown(document.body, { key: "ArrowRight" });
    expect(screen.getByRole("img", { name: "After screenshot" }).getAttribute("src")).toBe("/media/r1/shots/1-after.jpg");
    fireEvent.click(screen.getByRole("button", { name: "Before" }));
    expect(screen.getByRole("img", { name: "Before screenshot" }).getAttribute("src")).toBe("/media/r1/shots/1-before.jpg");
    fireEvent.keyDown(document.body, { key: "ArrowRight" });
    expect(screen.getByRole("img", { name: "Before screenshot" }).getAttribute("src")).toBe("/media/r1/shots/2-before.jpg");
    fireEvent.click(screen.getByRole("button", { name: "200%" }));
    expect(screen.getByTestId("shot-area").className).toBe("shot-area zoom-2");
  });

  it("shows the planner's reason, the decision and the blocked requests", () => {
    render(<Harness attempt={issueAttempt} />);
    tab("Decision");
    expect(screen.getByText("the close button is the only way to close it")).toBeTruthy();
    expect(screen.getByText('click test_id "close-issue"')).toBeTruthy();
    tab("Blocked (1)");
    expect(screen.getByText("https://tracker.example/analytics.js")).toBeTruthy();
    tab("Evidence");
    expect(screen.getByText("no answer: dial tcp 127.0.0.1:9000: connection refused")).toBeTruthy();
    expect(screen.getByText("Confirm with Enter").closest("li")!.textContent).toContain("not reached");
  });

  it("shows a model planner's turns, the review, the approvals (who answered, whom they refused) and the reconciliation", () => {
    const [first, ...rest] = issueAttempt.steps!;
    const step = {
      ...first,
      decision: { ...first.decision, class: "commit" as const, contract: "irreversible" as const, why: "the word “Close”", ask_user: true,
        review: { reviewer: "rules", verdict: "caution" as const, reason: "closing is permanent" } },
      guidance: "the same call repeated: change approach",
      model_turns: [{ step: 0, model: "openai:gpt-4.1-mini", messages: 4, tokens: 1800, grounded_at_ms: 12, text: "I will close it.",
        calls: [{ id: "c1", name: "click", arguments: '{"test_id":"close-issue"}', outcome: "proposed" as const }],
        in_tokens: 1790, out_tokens: 40, latency_ms: 830, cost_usd: 0.0012, notes: ["rotated to the second model"] }],
      approvals: [{ request: { step: 0, action: "Close the issue", target: 'test_id "close-issue"', data: null, permanence: "a closed issue cannot be reopened",
        url: "http://127.0.0.1:9000/issues/7", hash: "h1" }, answer: "approve" as const, asked_ms: 20, answered_ms: 1400,
        by: "window (serve, pid 4242)", refused: [{ by: "pid 4300 (node agent.js)", at_ms: 25, why: "it tried to answer the run's approvals" }] }],
      reconciliation: { op_id: "op-1", query: "GET /api/issues?op_id=op-1", answer: "[{\"id\":7}]", found: 1, outcome: "completed" as const },
    };
    render(<Harness attempt={{ ...issueAttempt, steps: [step, ...rest] }} />);
    tab("Model (1)");
    expect(screen.getByText("openai:gpt-4.1-mini")).toBeTruthy();
    expect(screen.getByText("I will close it.")).toBeTruthy();
    expect(screen.getByText("proposed")).toBeTruthy();
    expect(screen.getByText("rotated to the second model")).toBeTruthy();
    tab("Decision");
    expect(screen.getByText("caution by rules: closing is permanent")).toBeTruthy();
    expect(screen.getByText("the same call repeated: change approach")).toBeTruthy();
    expect(within(screen.getByRole("region", { name: "Approvals" })).getByText("approve")).toBeTruthy();
    const approvals = screen.getByRole("region", { name: "Approvals" });
    expect(approvals.textContent).toContain("by window (serve, pid 4242)");
    expect(within(approvals).getByText("self-approval refused at 25 ms: pid 4300 (node agent.js), it tried to answer the run's approvals")).toBeTruthy();
    expect(screen.getByText("a closed issue cannot be reopened")).toBeTruthy();
    const reconciled = screen.getByText("Reconciled").nextElementSibling!;
    expect(reconciled.textContent).toBe('completed: 1 record for operation op-1 (GET /api/issues?op_id=op-1)[{"id":7}]');
    expect(within(reconciled as HTMLElement).getByText("GET /api/issues?op_id=op-1", { selector: "code" })).toBeTruthy();
    expect(reconciled.querySelector("pre")!.textContent).toBe('[{"id":7}]');
  });

  it("explains its terms in help popovers", () => {
    render(<Harness />);
    const help = screen.getByRole("button", { name: "What is the Jaccard distance?" });
    fireEvent.click(help);
    expect(help.getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByRole("note").textContent).toContain("Role-set Jaccard distance");
    fireEvent.keyDown(help, { key: "Escape" });
    expect(screen.queryByRole("note")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "What is could not confirm?" }));
    expect(screen.getByRole("note").textContent).toContain("the oracle could not answer at all");
  });

  it("shows a running attempt's live page, gate check and events", () => {
    const live: LiveView = { frame: "frames/9.jpg", check: { gate: noticeNothingSaved.verdicts.gate }, events: noticeNothingSaved.events!.slice(0, 2) };
    render(<Harness live={live} />);
    expect(screen.getByRole("img", { name: "Live page" }).getAttribute("src")).toBe("/media/r1/frames/9.jpg");
    expect(screen.getByTestId("ended").textContent).toBe("running…");
    expect(screen.getByText("2 of 6 hold")).toBeTruthy();
    tab("Events (2)");
    expect(screen.getByText("#2 76 ms field-changed field=title value=Spectral scan")).toBeTruthy();
  });

  it("remembers the panes' sizes", () => {
    const { unmount } = render(<Harness />);
    const sep = screen.getByRole("separator", { name: "Resize the steps list" });
    expect(sep.getAttribute("aria-valuenow")).toBe("230");
    fireEvent.keyDown(sep, { key: "ArrowRight" });
    fireEvent.keyDown(sep, { key: "ArrowRight" });
    expect(sep.getAttribute("aria-valuenow")).toBe("262");
    unmount();
    render(<Harness />);
    expect(screen.getByRole("separator", { name: "Resize the steps list" }).getAttribute("aria-valuenow")).toBe("262");
    fireEvent.keyDown(screen.getByRole("separator", { name: "Resize the steps list" }), { key: "End" });
    expect(localStorage.getItem("observatory.pane.steps")).toBe("520");
  });

  describe("with a recorded video", () => {
    /** The video element, made seekable as a loaded video is (jsdom loads no media). */
    function loadedVideo() {
      fireEvent.click(screen.getByRole("button", { name: "Video" }));
      const v = screen.getByTestId("attempt-video") as HTMLVideoElement;
      Object.defineProperty(v, "readyState", { value: 1, configurable: true });
      let t = 0;
      Object.defineProperty(v, "currentTime", { get: () => t, set: (x: number) => (t = x), configurable: true });
      fireEvent.loadedMetadata(v);
      return v;
    }

    it("shows it in the centre when Video is chosen", () => {
      render(<Harness video="video.webm" />);
      expect(screen.queryByTestId("attempt-video")).toBeNull();
      fireEvent.click(screen.getByRole("button", { name: "Video" }));
      expect(screen.getByLabelText("Recorded video", { selector: "video" }).getAttribute("src")).toBe("/media/r1/video.webm");
    });

    it("seeks to the chosen step's start, by keys, buttons and the step list", () => {
      render(<Harness video="video.webm" />);
      const v = loadedVideo();
      expect(v.currentTime).toBe(0); // step 1 starts at 0 ms
      fireEvent.keyDown(document.body, { key: "End" });
      expect(v.currentTime).toBe(0.131);
      fireEvent.click(screen.getByRole("button", { name: "Previous step" }));
      expect(v.currentTime).toBe(0.102);
      fireEvent.click(screen.getByRole("button", { name: /Choose a room/ }));
      expect(v.currentTime).toBe(0.077);
    });

    it("follows the playing video: the step at its time becomes the chosen one, without seeking back", () => {
      render(<Harness video="video.webm" />);
      const v = loadedVideo();
      v.currentTime = 0.2;
      fireEvent.timeUpdate(v);
      expect(heading()).toBe("Step 5 of 5: Verify committed reservation");
      expect(v.currentTime).toBe(0.2); // the video stays where it plays
      expect(markName(screen.getByRole("option", { selected: true }))).toMatch(/^Step 5: Verify committed reservation/);
      v.currentTime = 0.05;
      fireEvent.timeUpdate(v);
      expect(heading()).toBe("Step 2 of 5: Fill task title");
      expect(v.currentTime).toBe(0.05);
      fireEvent.keyDown(document.body, { key: "ArrowRight" }); // and choosing again seeks
      expect(v.currentTime).toBe(0.077);
    });
  });

  describe("the timeline", () => {
    const marks = () => within(screen.getByRole("listbox", { name: "Timeline marks" }));
    const selected = () => markName(marks().getByRole("option", { selected: true }));

    it("interleaves the steps, the app's events and the final check, with the gate's state at each", () => {
      render(<Harness attempt={{ ...withShots, events: savesNormally.events }} />);
      const options = marks().getAllByRole("option");
      const labels = [...options].sort((a, b) => Number(a.getAttribute("aria-posinset")) - Number(b.getAttribute("aria-posinset"))).map(markName);
      // Steps and checks on the step lane, the app's events and the final check on a lane of their own.
      const lane = (name: string) => within(screen.getByRole("group", { name })).getAllByRole("option").map(markName);
      expect(lane("Agent steps").every((l) => /^Step \d/.test(l))).toBe(true);
      expect(lane("App events and the final check").every((l) => /^(#\d|Final check)/.test(l))).toBe(true);
      expect(labels.slice(0, 4)).toEqual([
        "Step 1: Open reservation dialog, agent step at 0 ms, gate not known here",
        "#1 dialog-opened, app event at 40 ms, gate not known here",
        "Step 2: Fill task title, agent step at 41 ms, gate not known here",
        "#2 field-changed field=title value=Spectral scan, app event at 76 ms, gate not known here",
      ]);
      expect(labels.at(-1)).toBe("Final check: 0 oracle answers, oracle check at 655 ms, gate not done");
      expect(labels).toContain("Step 5: Verify committed reservation, oracle check at 131 ms, gate not known here");
      const shots = [...screen.getByRole("listbox", { name: "Timeline marks" }).querySelectorAll("img")].map((img) => img.getAttribute("src"));
      expect(shots[0]).toBe("/media/r1/shots/0-after.jpg"); // the filmstrip's thumbnails
      fireEvent.mouseEnter(marks().getByRole("option", { name: /^Step 2: / }));
      const preview = screen.getByTestId("strip-preview");
      expect(preview.querySelector("img")!.getAttribute("src")).toBe("/media/r1/shots/1-after.jpg");
      expect(preview.textContent).toMatch(/^Step 2: Fill task title 41 ms · \d+ ms long · gate not known here$/);
    });

    it("shows the gate from the replay's frames, and choosing a mark chooses its step and frame", () => {
      render(<Harness replay={replay} />);
      expect(selected()).toBe("Step 1: Open reservation dialog, agent step at 0 ms, gate not done");
      fireEvent.click(marks().getByRole("option", { name: /^#5 save-answered/ }));
      expect(heading()).toBe("Step 5 of 5: Verify committed reservation");
      tab("Replay");
      expect(screen.getByText("Frame 6 of 8")).toBeTruthy();
      fireEvent.change(screen.getByRole("slider", { name: "Replay frame" }), { target: { valueAsNumber: 2 } });
      expect(heading()).toBe("Step 2 of 5: Fill task title");
      expect(selected()).toMatch(/^#2 field-changed/);
    });

    it("steps with ←/→ when focused as anywhere else, ↓ and ↑ going to the events' lane and back", () => {
      render(<Harness />);
      const box = screen.getByRole("listbox", { name: "Timeline marks" });
      fireEvent.keyDown(box, { key: "ArrowRight" });
      expect(selected()).toMatch(/^Step 2: /);
      expect(heading()).toBe("Step 2 of 5: Fill task title");
      fireEvent.keyDown(box, { key: "ArrowDown" });
      expect(selected()).toMatch(/^#2 field-changed/);
      fireEvent.keyDown(box, { key: "ArrowLeft" });
      expect(selected()).toMatch(/^#1 dialog-opened/);
      expect(heading()).toBe("Step 1 of 5: Open reservation dialog");
      fireEvent.keyDown(box, { key: "ArrowUp" });
      expect(selected()).toMatch(/^Step 1: /);
      fireEvent.keyDown(box, { key: "ArrowDown" });
      fireEvent.keyDown(box, { key: "End" });
      expect(selected()).toMatch(/^Final check/);
      fireEvent.keyDown(document.body, { key: "Home" });
      expect(selected()).toMatch(/^Step 1: /);
      expect(screen.getByRole("slider", { name: "Time" }).getAttribute("aria-valuenow")).toBe("0");
    });

    it("renders a window of marks, not one element per step, on a long run", () => {
      const many = Array.from({ length: 2000 }, (_, k) => ({ ...withShots.steps![k % 5], start_ms: k * 10, duration_ms: 5 }));
      render(<Harness attempt={{ ...withShots, steps: many, events: [] }} />);
      fireEvent.keyDown(document.body, { key: "End" });
      expect(marks().getAllByRole("option").length).toBeLessThanOrEqual(60); // about three views' width of thumbnails
      expect(selected()).toMatch(/^Step 2000: /);
      expect(marks().getByRole("option", { selected: true }).getAttribute("aria-posinset")).toBe("2000");
    });
  });
});
