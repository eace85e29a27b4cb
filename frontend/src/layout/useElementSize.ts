// What a component lays out by the room it is given (the rows in view, a strip's cells, a
// scale, labels beside boxes) follows its element's size: read before the first paint and
// again on every resize, through one ResizeObserver per element.
import { useLayoutEffect, useRef, useState, type RefObject } from "react";

/** An element's inner size in px: its client width and height (padding in, border and scrollbar out). */
export interface ElementSize {
  width: number;
  height: number;
}

/**
 * Calls onResize with the element ref holds before it is first painted and again whenever it
 * is resized (the latest onResize given). The element is looked up and watched afresh
 * whenever watch changes, and not watched while it is false: a caller whose element is drawn
 * only sometimes passes what decides that, one that lays out again when its content changes
 * passes the content. Without a ResizeObserver (as in jsdom) onResize is called once.
 */
export function useResized<T extends HTMLElement>(ref: RefObject<T | null>, onResize: (el: T) => void, watch: unknown = true): void {
  const latest = useRef(onResize);
  latest.current = onResize;
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || watch === false) return;
    const call = () => latest.current(el);
    call();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(call);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, watch]);
}

/**
 * Returns the client size of the element ref holds, followed as useResized follows it (watch
 * likewise); 0×0 until it is read, and where nothing is laid out (as in jsdom). While watch
 * is false the last size read is kept.
 */
export function useElementSize(ref: RefObject<HTMLElement | null>, watch: unknown = true): ElementSize {
  const [size, setSize] = useState<ElementSize>({ width: 0, height: 0 });
  useResized(
    ref,
    (el) => {
      const width = el.clientWidth;
      const height = el.clientHeight;
      setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
    },
    watch,
  );
  return size;
}
