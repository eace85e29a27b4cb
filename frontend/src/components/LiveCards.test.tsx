// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { noticeNothingSaved, savesNormally } from "../test/fixtures";
import { LiveCards } from "./LiveCards";

describe("LiveCards", () => {
  it("shows each running attempt's step, frame and gate, and opens the one clicked", () => {
    const onOpen = vi.fn();
    render(
      <LiveCards
        cards={[
          { slug: "saves-normally", title: "Saves normally", steps: savesNormally.steps!.slice(0, 2), screen: "data:image/jpeg;base64,AAA", check: { gate: savesNormally.verdicts.gate } },
          { slug: "notice-nothing-saved", title: "Notice, nothing saved", steps: [], unwatchable: "this browser cannot stream its pages live", check: { gate: noticeNothingSaved.verdicts.gate } },
        ]}
        selected="saves-normally"
        onOpen={onOpen}
      />,
    );
    const first = screen.getByTestId("live-saves-normally");
    expect(first.getAttribute("aria-pressed")).toBe("true");
    expect(within(first).getByRole("img", { name: "Saves normally: the page now" }).getAttribute("src")).toBe("data:image/jpeg;base64,AAA");
    expect(within(first).getByText(`step 2: ${savesNormally.steps![1].action.description}`)).toBeTruthy();
    expect(within(first).getByText("gate: done")).toBeTruthy();
    const second = screen.getByTestId("live-notice-nothing-saved");
    expect(within(second).getByText("this browser cannot stream its pages live")).toBeTruthy();
    expect(within(second).getByText("starting…")).toBeTruthy();
    expect(within(second).getByText(/^gate: not done \(\d of \d hold\)$/)).toBeTruthy();
    fireEvent.click(second);
    expect(onOpen).toHaveBeenCalledWith("notice-nothing-saved");
  });

  it("shows nothing when no attempt runs", () => {
    const { container } = render(<LiveCards cards={[]} selected={null} onOpen={vi.fn()} />);
    expect(container.innerHTML).toBe("");
  });
});
