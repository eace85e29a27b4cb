import { useLayoutEffect, type RefObject } from "react";

/** A point of a picture as fractions of its width and height (the target's centre). */
export interface Focus {
  x: number;
  y: number;
}

/**
 * Zoomed, the pane a picture scrolls in (its parent) is scrolled so that focus is in the
 * pane's middle, not out of view at the page's top left; again whenever the zoom or the focus
 * changes, or the picture becomes ready to measure. Fitted, or with no focus, it does nothing.
 */
export function useCentred(picture: RefObject<HTMLElement | null>, ready: boolean, focus: Focus | undefined, zoom: "fit" | number) {
  useLayoutEffect(() => {
    const el = picture.current;
    const area = el?.parentElement;
    if (!el || !area || !ready || !focus || zoom === "fit") return;
    const f = el.getBoundingClientRect();
    const a = area.getBoundingClientRect();
    area.scrollLeft += f.left - a.left + focus.x * f.width - area.clientWidth / 2;
    area.scrollTop += f.top - a.top + focus.y * f.height - area.clientHeight / 2;
  }, [ready, zoom, focus?.x, focus?.y]);
}
