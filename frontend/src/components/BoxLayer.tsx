import type { Drawn } from "../trace/boxes";

/**
 * The boxes drawn over a picture of the page (a screenshot or a DOM snapshot), placed in
 * percentages of the layer, which the picture's container sizes to the page as shown (see
 * .shot-boxes in styles.css); draws nothing for no box.
 */
export function BoxLayer({ boxes }: { boxes: Drawn[] }) {
  if (boxes.length === 0) return null;
  return (
    <div className="shot-boxes" aria-hidden="true">
      {boxes.map((b, i) => (
        <div
          key={i}
          className={["shot-box", b.kind, b.below && "label-below", b.end && "label-end"].filter(Boolean).join(" ")}
          style={{ left: b.left, top: b.top, width: b.width, height: b.height }}
          data-testid={`${b.kind}-box`}
        >
          <span>{b.label}</span>
        </div>
      ))}
    </div>
  );
}
