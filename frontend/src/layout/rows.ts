// Lists that draw only the rows in view: every row is the same height, so which rows a
// scrolled list shows is arithmetic, and a list of 10,000 rows draws a few dozen. Pure.

/** Rows drawn beyond the visible ones on each side, so scrolling shows no gap. */
const OVERSCAN = 6;

/** The height assumed before the list has been laid out (and in tests without layout). */
const UNMEASURED = 800;

/**
 * The rows [first, last) to draw of n rows of rowHeight px, in a list scrolled to top and
 * height px tall. A list that got shorter since it was scrolled (filtered, say) shows its end.
 */
export function visibleRows(scrolled: number, height: number, n: number, rowHeight: number): [number, number] {
  const top = Math.max(0, Math.min(scrolled, n * rowHeight - (height || UNMEASURED)));
  const first = Math.max(0, Math.floor(top / rowHeight) - OVERSCAN);
  const last = Math.min(n, Math.ceil((top + (height || UNMEASURED)) / rowHeight) + OVERSCAN);
  return [first, last];
}
