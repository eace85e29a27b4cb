// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { issueAttempt, lab, noticeNothingSaved, savesNormally } from "../test/fixtures";
import { columnsOf } from "../verdicts";
import { AttemptsTable, type AttemptRow } from "./AttemptsTable";

const rows: AttemptRow[] = [
  { slug: "saves-normally", title: "Saves normally", attempt: savesNormally },
  { slug: "notice-nothing-saved", title: "Notice shown, nothing saved", attempt: noticeNothingSaved },
  { slug: "save-refused", title: "Save refused" },
];

function renderTable(extra: Partial<Parameters<typeof AttemptsTable>[0]> = {}) {
  const props = { rows, columns: columnsOf(lab.columns), selected: null, running: null, disagreements: [], onRun: vi.fn(), onSelect: vi.fn(), ...extra };
  render(<AttemptsTable {...props} />);
  return props;
}

const cellTexts = (name: string) =>
  within(screen.getByRole("row", { name })).getAllByRole("cell").map((c) => c.textContent);

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
    expect(cellTexts("Totals")).toEqual(["yes: 1 of 2", "wrong: 1 of 2", "wrong: 1 of 2", "wrong: 0 of 2", "completed: 1 of 2"]);
  });

  it("lists an attempt without a result with empty cells, and marks the running one", () => {
    renderTable({ running: "save-refused" });
    expect(cellTexts("Save refused")).toEqual(["", "", "", "", "running…"]);
  });

  it("shows the file's recorded value where replay disagrees", () => {
    renderTable({ disagreements: [{ attempt: "notice-nothing-saved", verdict: "gate", recorded: "done", recomputed: "not done" }] });
    expect(cellTexts("Notice shown, nothing saved")[3]).toBe("not donefile said done");
  });

  it("runs on click and Enter, selects with the arrow keys", () => {
    const p = renderTable({ selected: "saves-normally" });
    const first = screen.getByRole("row", { name: "Saves normally" });
    fireEvent.keyDown(first, { key: "ArrowDown" });
    expect(p.onSelect).toHaveBeenLastCalledWith("notice-nothing-saved");
    expect(document.activeElement).toBe(screen.getByRole("row", { name: "Notice shown, nothing saved" }));
    fireEvent.keyDown(first, { key: "Enter" });
    expect(p.onRun).toHaveBeenLastCalledWith("saves-normally");
    fireEvent.click(screen.getByRole("row", { name: "Save refused" }));
    expect(p.onRun).toHaveBeenLastCalledWith("save-refused");
  });
});

describe("AttemptsTable of another task", () => {
  it("takes its columns from the task and says could not confirm apart from not done", () => {
    render(
      <AttemptsTable
        rows={[{ slug: "api-down", title: "API down", attempt: issueAttempt }]}
        columns={columnsOf(issueAttempt.verdicts)}
        selected={null}
        running={null}
        disagreements={[]}
        onRun={vi.fn()}
        onSelect={vi.fn()}
      />,
    );
    const heads = screen.getAllByRole("columnheader").map((h) => h.textContent);
    expect(heads).toEqual(["Attempt", "Issue closed in the database", "“Saved” banner", "Completion gate", "Terminal"]);
    expect(heads.join(" ")).not.toMatch(/saved as asked|notice|Parallax/i);
    expect(cellTexts("API down")).toEqual(["could not confirm", "donewrong", "not done", "failed"]);
  });
});
