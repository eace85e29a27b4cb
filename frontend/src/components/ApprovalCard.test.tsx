// @vitest-environment jsdom
import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { approvalAsk, askedAgain } from "../test/approvals";
import { ApprovalCard } from "./ApprovalCard";

function card(ask = approvalAsk) {
  const onAnswer = vi.fn();
  const view = render(<ApprovalCard ask={ask} title="The user denies the send" queued={0} onAnswer={onAnswer} />);
  return { onAnswer, view, dialog: screen.getByRole("alertdialog", { name: "Approve “Send the message”?" }) };
}

describe("ApprovalCard", () => {
  it("is a modal alert dialog that takes the focus and states the details in words", () => {
    const { dialog } = card();
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    expect(document.activeElement).toBe(dialog);
    const d = within(dialog);
    expect(d.getByText("button[Send]", { selector: "code" })).toBeTruthy();
    expect(d.getByText("Recipient").nextElementSibling!.textContent).toBe("alice@example.com");
    expect(d.getByText("Subject").nextElementSibling!.textContent).toBe("Lunch on Friday");
    expect(d.getByText("Message").nextElementSibling!.textContent).toBe("(empty)");
    expect(d.getByText(approvalAsk.request.permanence)).toBeTruthy();
    expect(d.getByRole("img", { name: "The page as it was when this was asked" }).getAttribute("src")).toBe(
      "/media/run-1/approval-denied/shot-0004.jpg",
    );
    expect(d.queryByText(/earlier approval is void/)).toBeNull();
    expect(dialog.getAttribute("aria-describedby")!.split(" ")).toHaveLength(1);
  });

  it("states first what is not as the task asked, then what it does and why it asks", () => {
    const request = {
      ...approvalAsk.request,
      effect: "Pay for the cart as bob, 20.00, on shop/",
      why: "the task allows re-authorization (safeguards.approval.reauthorize)",
      compared: [
        { field: "principal", asked: "alice", now: "bob", differs: "the task acts for alice; the signed-in account is bob" },
        { field: "amount", asked: "20.00", now: "20.00" },
      ],
    };
    const { dialog } = card({ ...approvalAsk, request });
    const d = within(dialog);
    const differs = d.getByText("Not as the task asked:").parentElement!;
    expect(differs.textContent).toContain("the task acts for alice; the signed-in account is bob.");
    expect(dialog.getAttribute("aria-describedby")!.split(" ")[0]).toBe(differs.id);
    expect(d.getByText("What it does").nextElementSibling!.textContent).toBe(request.effect);
    expect(d.getByText("As the task asked").nextElementSibling!.textContent).toBe("amount 20.00");
    expect(d.getByText("Why it asks").nextElementSibling!.textContent).toBe(request.why);
  });

  it("marks the control on the page's screenshot, where it was measured before asking", () => {
    const { dialog } = card();
    const img = within(dialog).getByRole("img", { name: "The page as it was when this was asked" });
    Object.defineProperty(img, "naturalWidth", { value: 1000 });
    Object.defineProperty(img, "naturalHeight", { value: 700 });
    fireEvent.load(img);
    const box = within(dialog).getByTestId("target-box");
    expect([box.style.left, box.style.top, box.style.width, box.style.height]).toEqual(["50%", "50%", "10%", "5%"]);
    expect(box.textContent).toBe("this control");
    expect(within(dialog).getByText(/the control is button\[Send\], marked\./)).toBeTruthy();
  });

  it("draws no box when the control could not be measured", () => {
    const { dialog } = card({ ...approvalAsk, request: { ...approvalAsk.request, target_box: undefined } });
    const img = within(dialog).getByRole("img", { name: "The page as it was when this was asked" });
    Object.defineProperty(img, "naturalWidth", { value: 1000 });
    Object.defineProperty(img, "naturalHeight", { value: 700 });
    fireEvent.load(img);
    expect(within(dialog).queryByTestId("target-box")).toBeNull();
    expect(within(dialog).getByText(/the control is button\[Send\]\./)).toBeTruthy();
  });

  it("states the account it pays as and the amount, asked again at a new price", () => {
    const { dialog } = card({
      ...approvalAsk,
      request: { ...approvalAsk.request, action: "Send the message", recipient: undefined, data: [], principal: "alice", amount: "25.00",
        facts: [{ id: "price", value: "25.00" }], again: 'the amount changed from "20.00" to "25.00"' },
    });
    const d = within(dialog);
    expect(d.getByText("Signed in as").nextElementSibling!.textContent).toBe("alice");
    expect(d.getByText("Amount").nextElementSibling!.textContent).toBe("25.00");
    expect(d.getByText(/earlier approval is void/).parentElement!.textContent).toContain('from "20.00" to "25.00"');
  });

  it("says the earlier approval is void, and why, when asked again", () => {
    const { dialog } = card(askedAgain);
    const again = within(dialog).getByText(/earlier approval is void/).parentElement!;
    expect(again.textContent).toBe('Your earlier approval is void: the recipient changed from "alice@example.com" to "mallory@example.com".');
    expect(dialog.getAttribute("aria-describedby")).toContain(again.id);
  });

  it("approves on Enter and Y, denies on Esc and N, and keeps the keys from the window", () => {
    const { dialog, onAnswer } = card();
    const seen = vi.fn();
    document.addEventListener("keydown", seen);
    for (const key of ["Enter", "y", "Escape", "n"]) fireEvent.keyDown(dialog, { key });
    fireEvent.keyDown(dialog, { key: "y", repeat: true });
    document.removeEventListener("keydown", seen);
    expect(onAnswer.mock.calls).toEqual([
      ["1", "approve"],
      ["1", "approve"],
      ["1", "deny"],
      ["1", "deny"],
    ]);
    expect(seen).not.toHaveBeenCalled();
  });

  it("leaves Enter on a button to that button, and answers by the buttons", () => {
    const { dialog, onAnswer } = card();
    const deny = within(dialog).getByRole("button", { name: "Deny" });
    fireEvent.keyDown(deny, { key: "Enter" });
    expect(onAnswer).not.toHaveBeenCalled();
    fireEvent.click(deny);
    fireEvent.click(within(dialog).getByRole("button", { name: "Approve" }));
    expect(onAnswer.mock.calls).toEqual([
      ["1", "deny"],
      ["1", "approve"],
    ]);
  });

  it("keeps Tab inside, and gives the focus back when it closes", () => {
    const outside = document.createElement("button");
    document.body.append(outside);
    outside.focus();
    const { dialog, view } = card();
    const [approve, deny] = within(dialog).getAllByRole("button");
    deny.focus();
    fireEvent.keyDown(deny, { key: "Tab" });
    expect(document.activeElement).toBe(approve);
    fireEvent.keyDown(approve, { key: "Tab", shiftKey: true });
    expect(document.activeElement).toBe(deny);
    view.unmount();
    expect(document.activeElement).toBe(outside);
    outside.remove();
  });
});
