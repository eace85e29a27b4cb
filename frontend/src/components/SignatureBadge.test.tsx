// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Signature } from "../api/types";
import { SignatureBadge, signatureLabel } from "./SignatureBadge";

const signed: Signature = {
  status: "verified",
  label: "",
  signer: "alice",
  fingerprint: "8b64 df53 00bf a5e1",
  signed: [
    { name: "run.json", sha256: "381d17beb3ea40b3aa" },
    { name: "media/a.jpg", sha256: "8e76213f902f8280bb" },
  ],
};

describe("SignatureBadge", () => {
  it("says each of the four answers in the issue's words", () => {
    expect(signatureLabel(signed)).toBe("signed by alice (8b64 df53 00bf a5e1), verified");
    expect(signatureLabel({ ...signed, status: "untrusted" })).toBe("signed by an untrusted key");
    expect(signatureLabel({ ...signed, status: "mismatch", reason: "run.json changed since it was signed" })).toBe("signature does not match");
    expect(signatureLabel({ status: "unsigned", label: "" })).toBe("unsigned");
  });

  it("lists what was signed, and what does not match, in its details", () => {
    render(<SignatureBadge signature={{ ...signed, status: "mismatch", reason: "media/a.jpg changed since it was signed" }} details />);
    expect(screen.getByTestId("signature").textContent).toBe("signature does not match");
    expect(screen.getByText("media/a.jpg changed since it was signed")).toBeTruthy();
    expect(screen.getByText("run.json")).toBeTruthy();
    expect(screen.getByText("media/a.jpg")).toBeTruthy();
  });

  it("shows nothing for a run made here", () => {
    const { container } = render(<SignatureBadge />);
    expect(container.textContent).toBe("");
  });
});
