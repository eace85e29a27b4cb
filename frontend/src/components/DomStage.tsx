import { useLayoutEffect, useRef, useState, type CSSProperties, type MouseEvent, type WheelEvent } from "react";
import type { Size, Target } from "../api/types";
import { useElementSize, useResized } from "../layout/useElementSize";
import { accessibleName, roleOf } from "../trace/aria";
import type { Drawn } from "../trace/boxes";
import { locatorsFor, pickable } from "../trace/locator";
import { BoxLayer, placeLabels } from "./BoxLayer";
import { useCentred, type Focus } from "./useCentred";

/** An element picked in a snapshot: its locators, best first (see locatorsFor), and what it is in words. */
export interface Picked {
  targets: Target[];
  what: string;
}

/** Props of DomStage. */
export interface DomStageProps {
  /** The document to show (see snapshotDocument). */
  doc: string;
  /** How far the page was scrolled when it was recorded (see scrollOf): the boxes fall on it scrolled there. */
  scroll: { x: number; y: number };
  label: string;
  /** The page's viewport as the snapshot was taken: the frame is laid out at that size and scaled to its pane. */
  viewport?: Size;
  boxes: Drawn[];
  /** Where to centre the pane when zoomed (see useCentred). */
  focus?: Focus;
  zoom: "fit" | number;
  /** True while hovering highlights elements and a click picks one. */
  picking: boolean;
  onPick(p: Picked): void;
}

/** An element in words as its hover label shows it: button "Save", else its tag. */
function describe(el: Element): string {
  const role = roleOf(el);
  const name = accessibleName(el);
  const short = name.length > 40 ? `${name.slice(0, 39)}…` : name;
  return role ? `${role}${short ? ` "${short}"` : ""}` : `<${el.localName}>`;
}

/** The element of doc under the point (x, y) of its viewport, through open shadow roots. */
function elementAt(doc: Document, x: number, y: number): Element | null {
  let el = doc.elementFromPoint(x, y);
  while (el?.shadowRoot) {
    const inner = el.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  return el;
}

/**
 * A DOM snapshot laid out at its recorded viewport and scaled to its pane as the screenshots
 * are, the step's boxes drawn over it, under a shield that takes every pointer event, so no
 * link of it is ever followed; out of picking the frame is inert too, so no key reaches it. The frame is sandboxed with no permission at all; while picking
 * it is given its same origin alone (never scripts, forms or navigation), so that this window
 * can read its layout: hovering highlights the element under the pointer with its box, a click
 * picks it (see Picked), the wheel scrolls it. The frame opens at the page's top; while picking
 * it is scrolled where the page was. The step's boxes, measured in the page's viewport, show
 * only while the frame is scrolled where the page was; a note says where that is otherwise.
 */
export function DomStage({ doc, scroll, label, viewport, boxes, focus, zoom, picking, onPick }: DomStageProps) {
  const stage = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const shield = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<Element | null>(null);
  const [chosen, setChosen] = useState<Element | null>(null);
  const [at, setAt] = useState({ x: 0, y: 0 });
  // Fitted, the page's width is scaled to the stage's; at 1 until the stage is laid out.
  const fit = viewport !== undefined && zoom === "fit";
  const width = useElementSize(stage, fit).width;
  const scale = !viewport ? 1 : zoom !== "fit" ? zoom : width > 0 ? width / viewport.width : 1;
  useCentred(stage, viewport !== undefined && scroll.x === 0 && scroll.y === 0, focus, zoom);
  useLayoutEffect(() => {
    setHover(null);
    setChosen(null);
    setAt({ x: 0, y: 0 });
  }, [picking, doc]);

  /** The frame's document while it may be read (picking), else null. */
  const inner = () => (picking ? (frame.current?.contentDocument ?? null) : null);
  const under = (e: MouseEvent<HTMLDivElement>) => {
    const d = inner();
    if (!d) return null;
    const r = e.currentTarget.getBoundingClientRect();
    const el = elementAt(d, (e.clientX - r.left) / scale, (e.clientY - r.top) / scale);
    return el && el !== d.documentElement && el !== d.body ? pickable(el) : null;
  };
  const onMove = (e: MouseEvent<HTMLDivElement>) => setHover(under(e));
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const el = under(e);
    if (!el) return;
    setChosen(el);
    onPick({ targets: locatorsFor(el), what: describe(el) });
  };
  const onWheel = (e: WheelEvent<HTMLDivElement>) => {
    const scroller = inner()?.scrollingElement;
    if (!scroller) return;
    scroller.scrollBy(e.deltaX / scale, e.deltaY / scale);
    setAt({ x: scroller.scrollLeft, y: scroller.scrollTop });
    setHover(null);
  };
  /** Picking, the frame is scrolled where the page was once it has loaded. */
  const onLoad = () => {
    const scroller = inner()?.scrollingElement;
    if (!scroller) return;
    scroller.scrollTo(scroll.x, scroll.y);
    setAt({ x: scroller.scrollLeft, y: scroller.scrollTop });
  };
  const placed = at.x === scroll.x && at.y === scroll.y;
  /** el's box over the stage, in px of the stage; null once it left the frame's document. */
  const boxOf = (el: Element | null) => {
    if (!el || !el.isConnected) return null;
    const r = el.getBoundingClientRect();
    return { left: r.left * scale, top: r.top * scale, width: r.width * scale, height: r.height * scale };
  };
  const hovered = picking && hover !== chosen ? boxOf(hover) : null;
  const hoverText = hovered && hover ? describe(hover) : "";
  const picked = picking ? boxOf(chosen) : null;
  // The hover box's label goes beside it as the step's boxes' labels go beside theirs, within
  // the stage and clear of the picked box; placed again whenever the box moves or the stage is resized.
  useResized(shield, placeLabels, hovered ? `${hovered.left} ${hovered.top} ${hovered.width} ${hovered.height} ${hoverText}` : false);

  const style = {
    ...(viewport ? { "--page-width": `${viewport.width}px`, "--page-height": `${viewport.height}px`, "--ratio": `${viewport.width} / ${viewport.height}` } : {}),
    "--scale": String(scale),
  } as CSSProperties;
  return (
    <div className={`dom-stage${viewport ? " sized" : ""}`} style={style} ref={stage} data-testid="dom-stage">
      <iframe
        key={picking ? "picking" : "still"}
        ref={frame}
        className="dom-frame"
        title={label}
        sandbox={picking ? "allow-same-origin" : ""}
        referrerPolicy="no-referrer"
        srcDoc={doc}
        tabIndex={-1}
        inert={!picking}
        onLoad={onLoad}
        data-testid="dom-frame"
      />
      {placed && <BoxLayer boxes={boxes} />}
      <div
        className={`dom-shield${picking ? " picking" : ""}`}
        ref={shield}
        onPointerMove={picking ? onMove : undefined}
        onPointerLeave={() => setHover(null)}
        onClick={picking ? onClick : undefined}
        onWheel={picking ? onWheel : undefined}
        data-testid="dom-shield"
      >
        {hovered && (
          <div className="shot-box hover" style={hovered} data-testid="hover-box">
            <span>{hoverText}</span>
          </div>
        )}
        {picked && <div className="shot-box picked" style={picked} data-testid="picked-box" />}
      </div>
      {!placed && boxes.length > 0 && (
        <p className="dom-note">
          The page was {scroll.x || scroll.y ? `scrolled ${scroll.y} px down${scroll.x ? ` and ${scroll.x} px right` : ""}` : "at its top"} when recorded; its boxes show
          there{picking ? "" : " (Pick element scrolls there)"}.
        </p>
      )}
    </div>
  );
}
