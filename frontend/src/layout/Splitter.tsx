import { useRef, type PointerEvent } from "react";

/** Props of Splitter. */
export interface SplitterProps {
  /** What it resizes, as its accessible name ("Resize the steps list"). */
  label: string;
  /** "vertical" sits between columns and drags sideways; "horizontal" between rows. */
  orientation: "vertical" | "horizontal";
  /** The size of the pane it resizes, in px, and its bounds. */
  size: number;
  min: number;
  max: number;
  /** +1 when dragging right/down grows the pane, -1 when it shrinks it. */
  direction: 1 | -1;
  onSize(px: number): void;
}

/** Keyboard steps, in px. */
const STEP = 16;

/**
 * A draggable, focusable separator between two panes: drag it, or focus it and use the arrow
 * keys (Home/End for the bounds).
 */
export function Splitter({ label, orientation, size, min, max, direction, onSize }: SplitterProps) {
  const drag = useRef<{ from: number; size: number } | null>(null);
  const pos = (e: PointerEvent) => (orientation === "vertical" ? e.clientX : e.clientY);
  const [less, more] = orientation === "vertical" ? ["ArrowLeft", "ArrowRight"] : ["ArrowUp", "ArrowDown"];
  return (
    <div
      role="separator"
      aria-label={label}
      aria-orientation={orientation}
      aria-valuenow={size}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      className={`splitter ${orientation}`}
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture?.(e.pointerId);
        drag.current = { from: pos(e), size };
      }}
      onPointerMove={(e) => {
        if (drag.current) onSize(drag.current.size + direction * (pos(e) - drag.current.from));
      }}
      onPointerUp={() => (drag.current = null)}
      onPointerCancel={() => (drag.current = null)}
      onKeyDown={(e) => {
        const by = { [less]: -STEP * direction, [more]: STEP * direction }[e.key];
        const to = e.key === "Home" ? min : e.key === "End" ? max : by === undefined ? undefined : size + by;
        if (to === undefined) return;
        e.preventDefault();
        e.stopPropagation();
        onSize(to);
      }}
    />
  );
}
