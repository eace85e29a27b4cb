import { describe, expect, it } from "vitest";
import { foldApproval, notTaken } from "./approvals";
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

describe("notTaken", () => {
  const closed = (answer: "approve" | "deny" | "none") => ({ ...approvalAsk, open: false, answer });

  it("says nothing when the run took the answer given, or none was given", () => {
    expect(notTaken("approve", closed("approve"))).toBeNull();
    expect(notTaken(undefined, closed("deny"))).toBeNull();
    expect(notTaken("deny", { ...approvalAsk, open: true })).toBeNull();
  });

  it("says what the run took when another answer got there first", () => {
    expect(notTaken("approve", closed("deny"))).toMatch(/not taken.*was denied/);
    expect(notTaken("deny", closed("none"))).toMatch(/not taken.*held: nothing was sent/);
  });
});
