import { useLayoutEffect, useRef, useState, type CSSProperties } from "react";
import { placeLabel, type Drawn, type Rect } from "../trace/boxes";
import { Media } from "./Media";

/** Props of ShotFrame. */
export interface ShotFrameProps {
  runId: string;
  path: string;
  label: string;
  /** The boxes to draw over it; empty draws none. */
  boxes: Drawn[];
  /** Image pixels per CSS pixel of the page it shows (Sample.pixel_ratio); absent is 1. At 100 %
   * the image is shown at the page's own size, its extra pixels making it sharper, not larger. */
  pixelRatio?: number;
  /** Where to centre the pane when zoomed, as fractions of the screenshot's width and height (the target's centre); absent leaves the top left. */
  focus?: { x: number; y: number };
  /** The zoom the pane shows the screenshot at; a change centres it on focus again. */
  zoom?: "fit" | number;
}

/**
 * One screenshot at the chosen zoom with boxes drawn over it, placed in percentages of a
 * layer the size of the image as shown (see .shot-boxes in styles.css), so they stay on
 * their elements however the pane is resized or the image zoomed. Boxes wait for the image,
 * whose proportions the fitted layer needs: a missing file draws none.
 */
export function ShotFrame({ runId, path, label, boxes, pixelRatio = 1, focus, zoom = "fit" }: ShotFrameProps) {
  const [natural, setNatural] = useState<{ path: string; w: number; h: number } | null>(null);
  const size = natural?.path === path ? natural : null;
  const frame = useRef<HTMLDivElement>(null);
  // Zoomed, the pane scrolls so the target's centre is in its middle, not out of view at the page's top left.
  useLayoutEffect(() => {
    const el = frame.current;
    const area = el?.parentElement;
    if (!el || !area || !size || !focus || zoom === "fit") return;
    const f = el.getBoundingClientRect();
    const a = area.getBoundingClientRect();
    area.scrollLeft += f.left - a.left + focus.x * f.width - area.clientWidth / 2;
    area.scrollTop += f.top - a.top + focus.y * f.height - area.clientHeight / 2;
  }, [size, zoom, focus?.x, focus?.y]);
  const layer = useRef<HTMLDivElement>(null);
  // Each label goes beside its box, never over it, clear of the other boxes and the labels
  // placed before it where it can be (the target's first); again whenever the picture is
  // resized or zoomed.
  useLayoutEffect(() => {
    const el = layer.current;
    if (!el) return;
    const put = () => {
      const l = el.getBoundingClientRect();
      const drawn = [...el.children] as HTMLElement[];
      const rects: Rect[] = drawn.map((d) => {
        const r = d.getBoundingClientRect();
        return { x: r.left - l.left, y: r.top - l.top, w: r.width, h: r.height };
      });
      const placed: Rect[] = [];
      drawn.forEach((d, i) => {
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
    };
    put();
    if (typeof ResizeObserver === "undefined") return;
    const watch = new ResizeObserver(put);
    watch.observe(el);
    return () => watch.disconnect();
  }, [size, boxes]);
  const style = size ? ({ "--ratio": `${size.w} / ${size.h}`, "--css-width": `${size.w / pixelRatio}px` } as CSSProperties) : undefined;
  return (
    <div className="shot-frame" style={style} data-testid="shot-frame" ref={frame}>
      <Media runId={runId} path={path} kind="image" label={label} onImageLoad={(img) => setNatural({ path, w: img.naturalWidth, h: img.naturalHeight })} />
      {size && boxes.length > 0 && (
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
      )}
    </div>
  );
}

