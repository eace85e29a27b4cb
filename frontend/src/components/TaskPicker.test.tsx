// @vitest-environment jsdom
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { TaskInfo } from "../api/types";
import { TaskPicker } from "./TaskPicker";

const lab = { ref: "lab:booking", task: { name: "booking" } } as TaskInfo;
const opened = { ref: "file:1", file: "close-issue.yaml", path: "/home/me/close-issue.yaml", task: { name: "close-issue" } } as TaskInfo;
const gone = { ref: "file:2", file: "signed-in.yaml", missing: "/home/me/signed-in.yaml is missing: it was moved or deleted since it was opened", task: { name: "signed-in.yaml" } } as TaskInfo;

function picker(fileInput: boolean, task: TaskInfo = lab) {
  const props = { onChoose: vi.fn(), onOpen: vi.fn(), onOpenDialog: vi.fn(), onForget: vi.fn() };
  render(<TaskPicker tasks={[lab, opened, gone]} task={task} disabled={false} fileInput={fileInput} {...props} />);
  return props;
}

describe("TaskPicker", () => {
  it("opens the native dialog in the desktop, with no file input", () => {
    const p = picker(false);
    expect(screen.queryByTestId("task-file")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Open task…" }));
    expect(p.onOpenDialog).toHaveBeenCalledTimes(1);
    expect(p.onOpen).not.toHaveBeenCalled();
  });

  it("reads a task file through the file input in a browser", () => {
    const p = picker(true);
    const input = screen.getByTestId("task-file") as HTMLInputElement;
    const click = vi.spyOn(input, "click");
    fireEvent.click(screen.getByRole("button", { name: "Open task…" }));
    expect(click).toHaveBeenCalled();
    const file = new File(["name: t\n"], "t.yaml");
    fireEvent.change(input, { target: { files: [file] } });
    expect(p.onOpen).toHaveBeenCalledWith(file);
    expect(p.onOpenDialog).not.toHaveBeenCalled();
  });

  it("lists a task file that is gone as missing, saying why, and lets it be forgotten", () => {
    const p = picker(false, gone);
    const options = screen.getAllByRole("option");
    expect(options.map((o) => o.textContent)).toEqual(["booking · lab", "close-issue · close-issue.yaml", "signed-in.yaml · signed-in.yaml · missing"]);
    expect(options[1].getAttribute("title")).toBe("/home/me/close-issue.yaml");
    expect(options[2].getAttribute("title")).toBe(gone.missing);
    fireEvent.click(screen.getByRole("button", { name: "Forget" }));
    expect(p.onForget).toHaveBeenCalledWith("file:2");
  });
});
