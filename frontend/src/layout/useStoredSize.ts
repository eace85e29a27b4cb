// A pane size in pixels that survives reloads: kept in localStorage under key, clamped to
// [min, max] however it got there (a hand-edited or stale value is never trusted).
import { useCallback, useState } from "react";

/** The localStorage key prefix of every stored pane size. */
const PREFIX = "observatory.pane.";

/** Reads the stored size, or fallback when there is none or it is not a number. */
function read(key: string, fallback: number, storage: Storage | undefined): number {
  const v = Number(storage?.getItem(PREFIX + key));
  return storage?.getItem(PREFIX + key) != null && Number.isFinite(v) ? v : fallback;
}

/** Returns the size and a setter that clamps and stores it. */
export function useStoredSize(key: string, fallback: number, min: number, max: number): [number, (px: number) => void] {
  const storage = typeof localStorage === "undefined" ? undefined : localStorage;
  const clamp = useCallback((v: number) => Math.round(Math.max(min, Math.min(max, v))), [min, max]);
  const [size, setSize] = useState(() => clamp(read(key, fallback, storage)));
  const set = useCallback(
    (px: number) => {
      const v = clamp(px);
      setSize(v);
      try {
        storage?.setItem(PREFIX + key, String(v));
      } catch {
        // A full or disabled storage only loses the remembered size.
      }
    },
    [clamp, key, storage],
  );
  return [clamp(size), set];
}
