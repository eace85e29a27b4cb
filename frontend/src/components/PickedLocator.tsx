import { useState } from "react";
import { targetYaml } from "../trace/locator";
import type { Picked } from "./DomStage";

/** Props of PickedLocator. */
export interface PickedLocatorProps {
  /** The element picked, null before one is. */
  picked: Picked | null;
}

/**
 * The locator of the element picked in a DOM snapshot, as a task file's step writes its
 * target (`target: {role: button, name: Save}`), with a Copy button and the other locators that
 * name it alone; before a pick, how to pick; an element nothing names alone says so.
 */
export function PickedLocator({ picked }: PickedLocatorProps) {
  const [copied, setCopied] = useState<{ text: string; ok: boolean } | null>(null);
  if (!picked) {
    return (
      <div className="picked muted" role="status" aria-label="Picked element">
        Point at an element of the snapshot and click it for its target; P or Esc ends picking.
      </div>
    );
  }
  const [best, ...others] = picked.targets.map((t) => `target: ${targetYaml(t)}`);
  if (!best) {
    return (
      <div className="picked" role="status" aria-label="Picked element">
        {picked.what}: nothing on the page names it alone.
      </div>
    );
  }
  const copy = () =>
    (navigator.clipboard?.writeText(best) ?? Promise.reject(new Error("no clipboard"))).then(
      () => setCopied({ text: best, ok: true }),
      () => setCopied({ text: best, ok: false }),
    );
  const said = copied?.text === best ? (copied.ok ? "Copied" : "Could not copy: select the text") : null;
  return (
    <div className="picked" role="status" aria-label="Picked element">
      <span className="muted">{picked.what}</span>
      <code data-testid="picked-locator">{best}</code>
      <button type="button" onClick={copy}>
        Copy
      </button>
      {said && <span className="muted">{said}</span>}
      {others.length > 0 && (
        <span className="also" title={others.join("\n")}>
          also {others.map((o) => o.slice("target: ".length)).join(" · ")}
        </span>
      )}
    </div>
  );
}
