// A panel laid over the window (Settings, Metrics) gets out of the way as a popover does: Esc
// closes it, and so does a press anywhere outside it and outside the header that opens it, so
// it never stays over what the user went on to use.
import { type RefObject, useEffect } from "react";

/**
 * While open, calls close on Esc (unless a control inside already used the key) and on a
 * pointer press outside panel and outside keep (the header whose button toggles the panel).
 */
export function useDismiss(open: boolean, close: () => void, panel: RefObject<HTMLElement | null>, keep: string = ".app-header"): void {
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented) close();
    };
    const onPress = (e: PointerEvent) => {
      const t = e.target;
      if (!(t instanceof Node) || panel.current?.contains(t)) return;
      if (t instanceof Element && t.closest(keep)) return;
      close();
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPress);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPress);
    };
  }, [open, close, panel, keep]);
}
