// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { issueAttempt, lab, noticeNothingSaved, savesNormally } from "../test/fixtures";
import { headerOf } from "../trace/summary";
import { columnsOf } from "../verdicts";
import { AttemptsTable, type AttemptRow } from "./AttemptsTable";

const rows: AttemptRow[] = [
  { slug: "saves-normally", title: "Saves normally", attempt: headerOf(savesNormally) },
  { slug: "notice-nothing-saved", title: "Notice shown, nothing saved", attempt: headerOf(noticeNothingSaved) },
  { slug: "save-refused", title: "Save refused" },
];

function renderTable(extra: Partial<Parameters<typeof AttemptsTable>[0]> = {}) {
  const props = { rows, columns: columnsOf(lab.columns), selected: null, running: null, busy: false, disagreements: [], onRun: vi.fn(), onSelect: vi.fn(), ...extra };
  render(<AttemptsTable {...props} />);
  return props;
}

/** The verdict cells of a row: those after the title, before "Why" and ▶. */
const cellTexts = (name: string) =>
  within(screen.getByRole("row", { name })).getAllByRole("cell").map((c) => c.textContent).slice(0, -2);
const whyText = (name: string) => within(screen.getByRole("row", { name })).getAllByRole("cell").at(-2)!.textContent;

describe("AttemptsTable", () => {
  it("marks verdicts that disagree with saved-as-asked as wrong, in words", () => {
    renderTable();
    expect(cellTexts("Saves normally")).toEqual(["yes", "done", "done", "done", "completed"]);
    expect(cellTexts("Notice shown, nothing saved")).toEqual(["no", "donewrong", "donewrong", "not done", "failed"]);
    const notice = within(screen.getByRole("row", { name: "Notice shown, nothing saved" })).getAllByRole("cell")[1];
    expect(notice.className).toBe("wrong");
  });

  it("totals the finished attempts", () => {
    renderTable();
    const totals = within(screen.getByRole("row", { name: "Totals" })).getAllByRole("cell").map((c) => c.textContent);
    expect(totals).toEqual(["yes: 1 of 2", "wrong: 1 of 2", "wrong: 1 of 2", "wrong: 0 of 2", "completed: 1 of 2", ""]);
  });

  it("lists an attempt without a result with empty cells, and marks the running one", () => {
    renderTable({ running: "save-refused" });
    expect(cellTexts("Save refused")).toEqual(["", "", "", "", "running…"]);
  });

  it("shows the file's recorded value where replay disagrees", () => {
    renderTable({ disagreements: [{ attempt: "notice-nothing-saved", verdict: "gate", recorded: "done", recomputed: "not done" }] });
    expect(cellTexts("Notice shown, nothing saved")[3]).toBe("not donefile said done");
  });

  it("selects on click and with the arrow keys, and runs only from the row's ▶", () => {
    const p = renderTable({ selected: "saves-normally" });
    const first = screen.getByRole("row", { name: "Saves normally" });
    fireEvent.keyDown(first, { key: "ArrowDown" });
    expect(p.onSelect).toHaveBeenLastCalledWith("notice-nothing-saved");
    expect(document.activeElement).toBe(screen.getByRole("row", { name: "Notice shown, nothing saved" }));
    fireEvent.keyDown(first, { key: "Enter" });
    fireEvent.click(screen.getByRole("row", { name: "Save refused" }));
    expect(p.onSelect).toHaveBeenLastCalledWith("save-refused");
    expect(p.onRun).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Run Save refused" }));
    expect(p.onRun).toHaveBeenCalledExactlyOnceWith("save-refused");
  });

  it("disables every ▶ while a run goes", () => {
    renderTable({ busy: true });
    expect(screen.getAllByRole("button").every((b) => (b as HTMLButtonElement).disabled)).toBe(true);
  });

  it("says why each attempt ended and names the first unmet gate condition", () => {
    renderTable();
    expect(whyText("Notice shown, nothing saved")).toBe("a success notice appeared without a committed recordunmet: Committed record exists");
    expect(whyText("Saves normally")).toBe("the completion gate holds");
    expect(whyText("Save refused")).toBe("");
  });
});

describe("AttemptsTable of another task", () => {
  it("takes its columns from the task and says could not confirm apart from not done", () => {
    render(
      <AttemptsTable
        rows={[{ slug: "api-down", title: "API down", attempt: headerOf(issueAttempt) }]}
        columns={columnsOf(issueAttempt.verdicts)}
        selected={null}
        running={null}
        busy={false}
        disagreements={[]}
        onRun={vi.fn()}
        onSelect={vi.fn()}
      />,
    );
    const heads = screen.getAllByRole("columnheader").map((h) => h.textContent);
    expect(heads).toEqual(["Attempt", "Issue closed in the database", "“Saved” banner", "Completion gate", "Terminal", "Why", "Run"]);
    expect(heads.join(" ")).not.toMatch(/saved as asked|notice|Parallax/i);
    // Against a truth that could not be confirmed the banner's "done" is not wrong: unknown is not no.
    expect(cellTexts("API down")).toEqual(["could not confirm", "done", "not done", "failed"]);
    expect(whyText("API down")).toContain("could not confirm: API says closed");
  });
});
