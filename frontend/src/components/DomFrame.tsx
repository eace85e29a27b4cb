import { useEffect, useMemo, useState } from "react";
import type { Size } from "../api/types";
import { mediaURL } from "../media";
import type { Drawn } from "../trace/boxes";
import { DomStage, type Picked } from "./DomStage";
import type { Focus } from "./useCentred";

/**
 * The policy every shown DOM snapshot starts with: nothing is fetched (no script, frame, font,
 * sheet or image from anywhere, this origin included), only its inline styles and data: images
 * apply.
 */
export const SNAPSHOT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/**
 * The link types a browser follows on its own, whatever the page's policy says of fetching:
 * a connection opened ahead (preconnect, dns-prefetch) or a resource fetched for later.
 */
const HINTS = new Set(["preconnect", "dns-prefetch", "prefetch", "preload", "modulepreload", "prerender", "next", "subresource"]);

/**
 * The snapshot without the links that would open a connection on their own (HINTS), which a
 * content policy does not stop in every browser. The snapshot is read in a document that has no
 * window (DOMParser's), so reading it fetches nothing; one with no such link is kept as it is.
 */
export function withoutHints(snapshot: string): string {
  const doc = new DOMParser().parseFromString(snapshot, "text/html");
  const hints = Array.from(doc.querySelectorAll("link")).filter((l) =>
    (l.getAttribute("rel") ?? "")
      .toLowerCase()
      .split(/\s+/)
      .some((r) => HINTS.has(r)),
  );
  if (hints.length === 0) return snapshot;
  hints.forEach((l) => l.remove());
  return (doc.doctype ? `<!DOCTYPE ${doc.doctype.name}>` : "") + doc.documentElement.outerHTML;
}

/**
 * Where the browser drew a dialog the snapshot marks modal (data-observatory-modal, see
 * backend/browser/domsnap.js): fixed in the viewport, over the page, as its own style sheet
 * for :modal has it. Of no weight (:where), so the page's own rules for its dialog win as they
 * did over the browser's. The backdrop, drawn only in the top layer, is not shown.
 */
export const MODAL_STYLE =
  "<style>:where(dialog[data-observatory-modal]){position:fixed;inset-block:0;max-width:calc(100% - 6px - 2em);max-height:calc(100% - 6px - 2em);overflow:auto;z-index:2147483647}</style>";

/** How far the page was scrolled when the snapshot was taken (data-observatory-scroll on its root), in CSS px; 0, 0 when it does not say. */
export function scrollOf(snapshot: string): { x: number; y: number } {
  const m = /<html\b[^>]*\sdata-observatory-scroll="(\d+) (\d+)"/i.exec(snapshot);
  return m ? { x: Number(m[1]), y: Number(m[2]) } : { x: 0, y: 0 };
}

/**
 * The document a snapshot is shown as: its text, without the links that connect on their own
 * (see withoutHints), with SNAPSHOT_CSP's meta first, after the doctype when it has one (so the
 * page keeps its standards mode), and MODAL_STYLE. Whatever the snapshot holds, an imported one
 * included, the policy comes before it.
 */
export function snapshotDocument(snapshot: string): string {
  const shown = withoutHints(snapshot);
  const meta = `<meta http-equiv="Content-Security-Policy" content="${SNAPSHOT_CSP}">${MODAL_STYLE}`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(shown);
  return doctype ? doctype[0] + meta + shown.slice(doctype[0].length) : meta + shown;
}

/** Props of DomFrame. */
export interface DomFrameProps {
  runId: string;
  /** The snapshot's path in the run's media folder (Sample.dom). */
  path: string;
  label: string;
  /** The page's viewport as the snapshot was taken: the frame's size at 100 %, scaled to fit or doubled. */
  viewport?: Size;
  /** The step's boxes to draw over it (see boxesOf); none by default. */
  boxes?: Drawn[];
  /** Where to centre the pane when zoomed: the target's centre (see useCentred). */
  focus?: Focus;
  zoom?: "fit" | number;
  /** True while the element picker is on (see DomStage). */
  picking?: boolean;
  onPick?(p: Picked): void;
}

/**
 * A step's DOM snapshot, the page's markup as it was recorded, shown in a frame that can run
 * nothing: sandboxed with no permission but, while picking, its same origin (no scripts, no
 * forms, no navigation of the window), its document starting with SNAPSHOT_CSP, under a shield
 * that takes every click (see DomStage). A snapshot that cannot be read (a run file carries no
 * media) says so.
 */
export function DomFrame({ runId, path, label, viewport, boxes = [], focus, zoom = "fit", picking = false, onPick = () => {} }: DomFrameProps) {
  const src = mediaURL(runId, path);
  const [read, setRead] = useState<{ src: string; text?: string; error?: string } | null>(null);
  useEffect(() => {
    let live = true;
    fetch(src, { credentials: "same-origin" })
      .then((res) => (res.ok ? res.text() : Promise.reject(new Error(`${res.status}`))))
      .then(
        (text) => live && setRead({ src, text }),
        (e: unknown) => live && setRead({ src, error: String(e) }),
      );
    return () => {
      live = false;
    };
  }, [src]);
  const shown = read?.src === src ? read : null;
  const doc = useMemo(() => (shown?.text === undefined ? null : { text: snapshotDocument(shown.text), scroll: scrollOf(shown.text) }), [shown?.text]);
  if (!shown) return <p className="muted empty-shot">Reading the {label}…</p>;
  if (shown.text === undefined) {
    return <p className="muted media-missing">{label}: not available (a run file carries no media; import a bundle to keep it).</p>;
  }
  return <DomStage doc={doc!.text} scroll={doc!.scroll} label={label} viewport={viewport} boxes={boxes} focus={focus} zoom={zoom} picking={picking} onPick={onPick} />;
}
