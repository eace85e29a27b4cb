import { describe, expect, it } from "vitest";
import { foldApproval } from "./approvals";
import { approvalAsk } from "../test/approvals";

describe("foldApproval", () => {
  const first = approvalAsk;
  const second = { ...approvalAsk, id: "2", slug: "recipient-changed-after-approval" };

  it("queues open requests in order, each once", () => {
    let w = foldApproval([], first);
    w = foldApproval(w, second);
    w = foldApproval(w, first);
    expect(w.map((a) => a.id)).toEqual(["1", "2"]);
  });

  it("drops a request once it closes, whatever its answer", () => {
    const w = foldApproval([first, second], { ...first, open: false, answer: "none" });
    expect(w).toEqual([second]);
  });
});
