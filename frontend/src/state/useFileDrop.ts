// Files dropped anywhere on the window: the hook reports whether files are being dragged over
// it (for an overlay) and hands the first dropped file to onFile. The browser never opens the
// dropped file itself.
import { useEffect, useState } from "react";

/** True when a drag carries files rather than text or an element. */
const carriesFiles = (e: DragEvent) => !!e.dataTransfer && Array.from(e.dataTransfer.types).includes("Files");

/** Calls onFile with a file dropped on the window; returns whether files are over it now. */
export function useFileDrop(onFile: (f: File) => void, target: Window = window): boolean {
  const [over, setOver] = useState(false);
  useEffect(() => {
    /** Enter and leave fire for every child element; count them to know when the drag left. */
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth++;
      setOver(true);
    };
    const leave = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const dragOver = (e: DragEvent) => {
      if (carriesFiles(e)) e.preventDefault(); // allows the drop
    };
    const drop = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setOver(false);
      const f = e.dataTransfer?.files[0];
      if (f) onFile(f);
    };
    target.addEventListener("dragenter", enter);
    target.addEventListener("dragleave", leave);
    target.addEventListener("dragover", dragOver);
    target.addEventListener("drop", drop);
    return () => {
      target.removeEventListener("dragenter", enter);
      target.removeEventListener("dragleave", leave);
      target.removeEventListener("dragover", dragOver);
      target.removeEventListener("drop", drop);
    };
  }, [onFile, target]);
  return over;
}
