// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ModelWaitNote } from "./ModelWaitNote";

describe("ModelWaitNote", () => {
  it("says which attempt waits for a model, in a live region that stays when nothing waits", () => {
    const titleOf = (slug: string) => (slug === "saves-normally" ? "Saves normally" : slug);
    const { rerender } = render(<ModelWaitNote waiting={{ "saves-normally": "waiting for a model: every model refused" }} titleOf={titleOf} />);
    expect(screen.getByRole("status").textContent).toBe("Saves normally: waiting for a model: every model refused");
    rerender(<ModelWaitNote waiting={{}} titleOf={titleOf} />);
    expect(screen.getByRole("status").textContent).toBe("");
  });
});
