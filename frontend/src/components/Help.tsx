import { useId, useState } from "react";
import { GLOSSARY, type Term } from "../glossary";

/**
 * A small "?" button that shows what a term means beside it, and hides it again on a second
 * press, Escape or moving focus away.
 */
export function Help({ term, topic }: { term: Term; topic: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <span className="help" onKeyDown={(e) => e.key === "Escape" && setOpen(false)}>
      <button
        type="button"
        className="help-button"
        aria-label={`What is ${topic}?`}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        onBlur={() => setOpen(false)}
      >
        ?
      </button>
      {open && (
        <span id={id} role="note" className="help-text">
          {GLOSSARY[term]}
        </span>
      )}
    </span>
  );
}
