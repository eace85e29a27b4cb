import { describe, expect, it } from "vitest";
import { actionText, targetText } from "./target";

describe("targetText", () => {
  it.each([
    [{ role: "button", name: "Save" }, "button[Save]"],
    [{ role: "main" }, "main[]"],
    [{ label: "Title" }, 'label "Title"'],
    [{ placeholder: "Search" }, 'placeholder "Search"'],
    [{ test_id: "save" }, 'test_id "save"'],
    [{ text: 'Say "hi"' }, 'text "Say \\"hi\\""'],
    [{ css: "#x > .y" }, 'css "#x > .y"'],
    [{}, ""],
  ])("renders %j as %s", (t, want) => {
    expect(targetText(t)).toBe(want);
  });
});

describe("actionText", () => {
  it("names the kind, the target and the value", () => {
    expect(actionText({ id: "a", description: "", kind: "fill", target: { label: "Title" }, value: "Scan" })).toBe('fill label "Title" “Scan”');
    expect(actionText({ id: "b", description: "", kind: "press", target: {}, value: "Enter" })).toBe("press “Enter”");
    expect(actionText({ id: "c", description: "", kind: "verify", target: {} })).toBe("verify all completion conditions");
  });
});
