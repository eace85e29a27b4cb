import { useRef } from "react";
import { useResized } from "../layout/useElementSize";
import { placeLabel, type Drawn, type Rect } from "../trace/boxes";

/**
 * Places the label of each box drawn in layer (a box's first child, if it has one) beside its
 * box with placeLabel, in the layer's bounds: clear of the box, of the other boxes and of the
 * labels placed before it where it can be, in the boxes' order.
 */
export function placeLabels(layer: HTMLElement): void {
  const l = layer.getBoundingClientRect();
  const shown = [...layer.children] as HTMLElement[];
  const rects: Rect[] = shown.map((d) => {
    const r = d.getBoundingClientRect();
    return { x: r.left - l.left, y: r.top - l.top, w: r.width, h: r.height };
  });
  const placed: Rect[] = [];
  shown.forEach((d, i) => {
    const label = d.firstElementChild as HTMLElement | null;
    if (!label) return;
    const own = rects[i];
    const dims = { w: label.offsetWidth, h: label.offsetHeight };
    const at = placeLabel(own, dims, { w: l.width, h: l.height }, [...rects.filter((_, j) => j !== i), ...placed]);
    placed.push({ ...at, ...dims });
    // The label is placed in its box, inside the box's border.
    label.style.left = `${at.x - own.x - d.clientLeft}px`;
    label.style.top = `${at.y - own.y - d.clientTop}px`;
    label.style.bottom = "auto";
  });
}

/**
 * The boxes drawn over a picture of the page (a screenshot or a DOM snapshot), placed in
 * percentages of the layer, which the picture's container sizes to the page as shown (see
 * .shot-boxes in styles.css); draws nothing for no box. Each label goes beside its box, never
 * over it, clear of the other boxes and the labels placed before it where it can be (the
 * target's first); again whenever the picture is resized or zoomed.
 */
export function BoxLayer({ boxes }: { boxes: Drawn[] }) {
  const layer = useRef<HTMLDivElement>(null);
  // Callers build boxes afresh on each render: lay the labels out again only when what is
  // drawn changed, not on every render of the trace.
  const drawn = boxes.map((b) => `${b.kind} ${b.left} ${b.top} ${b.width} ${b.height} ${b.label}`).join("|");
  useResized(layer, placeLabels, drawn);
  if (boxes.length === 0) return null;
  return (
    <div className="shot-boxes" aria-hidden="true" ref={layer}>
      {boxes.map((b, i) => (
        <div
          key={i}
          className={`shot-box ${b.kind}`}
          style={{ left: b.left, top: b.top, width: b.width, height: b.height }}
          data-testid={`${b.kind}-box`}
        >
          <span data-testid="box-label">{b.label}</span>
        </div>
      ))}
    </div>
  );
}
