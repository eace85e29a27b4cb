import { useRef, useState, type CSSProperties } from "react";
import type { Drawn } from "../trace/boxes";
import { BoxLayer } from "./BoxLayer";
import { Media } from "./Media";
import { useCentred, type Focus } from "./useCentred";

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
  focus?: Focus;
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
  useCentred(frame, size !== null, focus, zoom);
  const style = size ? ({ "--ratio": `${size.w} / ${size.h}`, "--css-width": `${size.w / pixelRatio}px` } as CSSProperties) : undefined;
  return (
    <div className="shot-frame" style={style} data-testid="shot-frame" ref={frame}>
      <Media runId={runId} path={path} kind="image" label={label} onImageLoad={(img) => setNatural({ path, w: img.naturalWidth, h: img.naturalHeight })} />
      {size && <BoxLayer boxes={boxes} />}
    </div>
  );
}

