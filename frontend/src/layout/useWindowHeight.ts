// The window's inner height in pixels, kept current across resizes, so a pane can give way
// when the window shrinks instead of pushing its neighbour off the screen.
import { useEffect, useState } from "react";

/** Returns window.innerHeight, updated on every resize (fallback outside a browser). */
export function useWindowHeight(fallback = 800): number {
  const current = () => (typeof window === "undefined" ? fallback : window.innerHeight);
  const [height, setHeight] = useState(current);
  useEffect(() => {
    const onResize = () => setHeight(window.innerHeight);
    window.addEventListener("resize", onResize);
    onResize(); // a resize between the first render and this listener is not missed
    return () => window.removeEventListener("resize", onResize);
  }, []);
  return height;
}
