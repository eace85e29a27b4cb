// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fakeApi } from "../test/fakeApi";
import { PairView, type PairSide } from "./PairView";

describe("PairView", () => {
  it("shows the pair's two traces side by side, the baseline first, each on the step that decided it", async () => {
    const { api } = fakeApi();
    const back = vi.fn();
    render(
      <PairView
        api={api}
        slug="notice-nothing-saved"
        title="Notice shown, nothing saved"
        sides={[
          { run: "run-1", label: "A (baseline)" },
          { run: "run-2", label: "B (candidate)" },
        ]}
        onBack={back}
      />,
    );
    await vi.waitFor(() => expect(screen.getAllByTestId("step-heading")).toHaveLength(2));
    const a = screen.getByRole("region", { name: "Trace A (baseline)" });
    const b = screen.getByRole("region", { name: "Trace B (candidate)" });
    expect(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    for (const side of [a, b]) {
      expect(within(side).getByTestId("step-heading").textContent).toBe("Step 4 of 5: Submit reservation form");
      expect(within(side).queryByRole("tablist")).toBeNull();
    }
    expect(within(a).getByRole("heading", { level: 2 }).textContent).toBe("Trace: Notice shown, nothing saved · A (baseline), run run-1");
    within(screen.getByRole("region", { name: /both runs/ })).getByRole("button", { name: "Back to the comparison" }).click();
    expect(back).toHaveBeenCalled();
  });

  it("reads a long attempt's step summaries apart from its header, once for each side", async () => {
    const { api } = fakeApi();
    const whole = api.history.header;
    // A long attempt's header comes without its steps' summaries.
    api.history.header = vi.fn(async (id: string) => {
      const h = await whole(id);
      return { ...h, attempts: h.attempts?.map((a) => ({ ...a, steps: null })) ?? null };
    });
    const sides: [PairSide, PairSide] = [
      { run: "run-1", label: "A (baseline)" },
      { run: "run-2", label: "B (candidate)" },
    ];
    render(<PairView api={api} slug="notice-nothing-saved" title="Notice shown, nothing saved" sides={sides} onBack={() => {}} />);
    await vi.waitFor(() => expect(screen.getAllByRole("navigation", { name: "Steps" })).toHaveLength(2), { timeout: 5000 });
    for (const label of ["A (baseline)", "B (candidate)"]) {
      const side = screen.getByRole("region", { name: `Trace ${label}` });
      expect(within(within(side).getByRole("navigation", { name: "Steps" })).getAllByRole("button")).toHaveLength(5);
    }
    expect(vi.mocked(api.history.summaries).mock.calls).toEqual([
      ["run-1", "notice-nothing-saved"],
      ["run-2", "notice-nothing-saved"],
    ]);
  });

  it("says why a side cannot open", async () => {
    const { api } = fakeApi();
    render(<PairView api={api} slug="save-refused" title="Save refused" sides={[{ run: "run-1", label: "A (baseline)" }, { run: "run-2", label: "B (candidate)" }]} onBack={() => {}} />);
    expect(await screen.findByText("A (baseline): could not open the trace: run run-1 has no attempt save-refused")).toBeTruthy();
  });
});
