// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Step } from "../api/types";
import { savesNormally } from "../test/fixtures";
import { DecisionView } from "./DecisionView";
import { SampleView } from "./SampleView";

/** The booking lab's submit step as a checkout's payment: high risk, decided as alice. */
function payment(): Step {
  const s = savesNormally.steps![2];
  const before = { ...s.before, principal: "alice", facts: [{ id: "price", value: "20.00" }, { id: "total", value: "" }], version: "checkout-a" };
  return {
    ...s,
    before,
    decision: {
      ...s.decision,
      class: "commit",
      risk: "high",
      fingerprint: "95d09432be0d32ac",
      observed: { route: "http://shop/", principal: "alice", version: "checkout-a", form: "00", at_ms: 2502, hash: "95d09432be0d32ac" },
    },
  };
}

describe("DecisionView and SampleView", () => {
  it("shows an outside agent's step as observed, not proposed, with no decision invented", () => {
    const s = savesNormally.steps![0];
    render(<DecisionView step={{ ...s, provenance: "observed", reason: undefined, decision: { class: "", admission: "", reason: "" } as unknown as Step["decision"] }} />);
    expect(screen.getByText("Provenance").nextElementSibling!.textContent).toContain("observed, not proposed");
    expect(screen.queryByText("Admission")).toBeNull();
    expect(screen.queryByText("Proposed")).toBeNull();
  });

  it("shows the answer about a request an outside agent's page sent, held at the network", () => {
    const s = savesNormally.steps![0];
    const request = { step: 0, action: "POST http://lab/api/reservations", target: "a request to http://lab", data: [], permanence: "sent on its own", url: "http://lab/api/reservations", hash: "h" };
    render(<DecisionView step={{ ...s, provenance: "observed", reason: undefined, decision: { class: "", admission: "", reason: "" } as unknown as Step["decision"],
      approvals: [{ request, answer: "deny", note: "the request failed at the network", asked_ms: 10, answered_ms: 12 }] }} />);
    const list = screen.getByRole("region", { name: "Approvals" });
    expect(list.textContent).toContain("deny");
    expect(list.textContent).toContain("POST http://lab/api/reservations");
    expect(list.textContent).toContain("the request failed at the network");
  });

  it("state a commit's risk and the observation its fingerprint was taken on", () => {
    render(<DecisionView step={payment()} />);
    expect(screen.getByText("Risk").nextElementSibling!.textContent).toContain("high: the price, amount, recipient and version must not change");
    const grounded = screen.getByText(/Grounded on/).closest("div")!;
    expect(within(grounded).getByText("95d09432be0d32ac")).toBeTruthy();
    expect(grounded.textContent).toContain("observed at 2502 ms, signed in as alice, version checkout-a");
    expect(within(grounded).getByRole("button", { name: "What is a fingerprint?" })).toBeTruthy();
  });

  it("says what a model review cost, and that a kept one was paid once", () => {
    const step = payment();
    step.decision = { ...step.decision, review: { reviewer: "model", verdict: "clear", reason: "fine", in_tokens: 880, out_tokens: 42, cost_usd: 0.00211, kept: true } };
    const { rerender } = render(<DecisionView step={step} />);
    expect(screen.getByText("Review").nextElementSibling!.textContent).toBe(
      "clear by model: fine (880 in / 42 out tokens, $0.0021, kept from before the re-check, paid once)",
    );
    rerender(<DecisionView step={{ ...step, decision: { ...step.decision, review: { reviewer: "rules", verdict: "clear", reason: "no rule holds" } } }} />);
    expect(screen.getByText("Review").nextElementSibling!.textContent).toBe("clear by rules: no rule holds");
  });

  it("shows the account, relevant text and version a sample read", () => {
    render(<SampleView heading="Before" sample={payment().before} />);
    expect(screen.getByText("Signed in as").nextElementSibling!.textContent).toBe("alice");
    expect(screen.getByText("price").nextElementSibling!.textContent).toBe("“20.00”");
    expect(screen.getByText("total").nextElementSibling!.textContent).toBe("not shown");
    expect(screen.getByText("Version").nextElementSibling!.textContent).toBe("checkout-a");
  });

  it("leave the authority out for a task that declares none", () => {
    render(<SampleView heading="Before" sample={savesNormally.steps![2].before} />);
    expect(screen.queryByText("Signed in as")).toBeNull();
    expect(screen.queryByText("Version")).toBeNull();
  });
});
