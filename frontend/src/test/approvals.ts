// An approval request shaped like the Go JSON (app.ApprovalAsk) from the outbox lab's
// recipient-changed attempt, asked again after the page rewrote the recipient. Tests only.
import type { ApprovalAsk } from "../api/types";

export const approvalAsk: ApprovalAsk = {
  id: "1",
  run_id: "run-1",
  slug: "approval-denied",
  open: true,
  request: {
    step: 3,
    action: "Send the message",
    target: "button[Send]",
    recipient: "alice@example.com",
    data: [
      { role: "textbox", name: "To", value: "alice@example.com" },
      { role: "textbox", name: "Subject", value: "Lunch on Friday" },
      { role: "textbox", name: "Message", value: "" },
    ],
    permanence: "This cannot be undone: once it runs, its effect is outside this page.",
    url: "http://127.0.0.1:40123/",
    screenshot: "approval-denied/shot-0004.jpg",
    target_box: { x: 500, y: 350, width: 100, height: 35, viewport_width: 1000, viewport_height: 700 },
    hash: "0a1b2c3d4e5f6071",
  },
};

/** The same request asked again: the page changed the recipient after the user approved. */
export const askedAgain: ApprovalAsk = {
  ...approvalAsk,
  id: "2",
  request: {
    ...approvalAsk.request,
    recipient: "mallory@example.com",
    again: 'the recipient changed from "alice@example.com" to "mallory@example.com"',
  },
};
