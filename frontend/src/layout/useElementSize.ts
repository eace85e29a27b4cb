// What a component lays out by the room it is given (the rows in view, a strip's cells, a
// scale, labels beside boxes) follows its element's size: read before the first paint and
// again on every resize, through one ResizeObserver per element.
import { useLayoutEffect, useRef, useState, type RefObject } from "react";

/** An element's inner size in px: its client width and height (padding in, border and scrollbar out). */
export interface ElementSize {
  width: number;
  height: number;
}

/** The element useResized watches, its observer, and the size it last laid out for. */
interface Watched<T> {
  el: T;
  observer?: ResizeObserver;
  size: string;
}

/** The client size el is laid out at, as a key. */
const sizeOf = (el: HTMLElement) => `${el.clientWidth}×${el.clientHeight}`;

/**
 * Calls onResize with the element ref holds before it is first painted, again whenever it is
 * resized, and again whenever watch changes (the latest onResize given each time). One
 * ResizeObserver follows the element for as long as it is the one drawn; a caller whose element
 * is drawn only sometimes passes false while it is not (the element is then not watched), one
 * that lays out again when its content changes passes the content. The observer's first report,
 * of the size already laid out for, calls nothing. Without a ResizeObserver (as in jsdom)
 * onResize is called only on the first paint and when watch changes.
 */
export function useResized<T extends HTMLElement>(ref: RefObject<T | null>, onResize: (el: T) => void, watch: unknown = true): void {
  const latest = useRef(onResize);
  latest.current = onResize;
  const watched = useRef<Watched<T> | null>(null);
  const laidOutFor = useRef<unknown>(undefined);
  // After every render: the element drawn may have changed without watch changing.
  useLayoutEffect(() => {
    const el = watch === false ? null : ref.current;
    const was = watched.current;
    const changed = !Object.is(laidOutFor.current, watch);
    laidOutFor.current = watch;
    if (was?.el === el) {
      if (el && changed) lay(was);
      return;
    }
    was?.observer?.disconnect();
    watched.current = el ? observe(el) : null;
  });
  useLayoutEffect(
    () => () => {
      watched.current?.observer?.disconnect();
      watched.current = null;
    },
    [],
  );

  /** Calls the latest onResize with w's element, noting the size it was called for. */
  function lay(w: Watched<T>) {
    w.size = sizeOf(w.el);
    latest.current(w.el);
  }

  /** Lays el out now and again whenever its size changes. */
  function observe(el: T): Watched<T> {
    const w: Watched<T> = { el, size: "" };
    lay(w);
    if (typeof ResizeObserver !== "undefined") {
      w.observer = new ResizeObserver(() => {
        if (sizeOf(el) !== w.size) lay(w);
      });
      w.observer.observe(el);
    }
    return w;
  }
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
