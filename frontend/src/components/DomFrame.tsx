import { useEffect, useState, type CSSProperties } from "react";
import type { Size } from "../api/types";
import { mediaURL } from "../media";

/**
 * The policy every shown DOM snapshot starts with: nothing is fetched (no script, frame, font,
 * sheet or image from anywhere, this origin included), only its inline styles and data: images
 * apply.
 */
export const SNAPSHOT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/**
 * The document a snapshot is shown as: its text with SNAPSHOT_CSP's meta first, after the
 * doctype when it has one (so the page keeps its standards mode). Whatever the snapshot holds,
 * an imported one included, the policy comes before it.
 */
export function snapshotDocument(snapshot: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${SNAPSHOT_CSP}">`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(snapshot);
  return doctype ? doctype[0] + meta + snapshot.slice(doctype[0].length) : meta + snapshot;
}

/** Props of DomFrame. */
export interface DomFrameProps {
  runId: string;
  /** The snapshot's path in the run's media folder (Sample.dom). */
  path: string;
  label: string;
  /** The page's viewport as the snapshot was taken, the frame's size at 100 % and 200 %. */
  viewport?: Size;
}

/**
 * A step's DOM snapshot, the page's markup as it was recorded, shown in a frame that can run
 * nothing: sandboxed with no permission at all (no scripts, no same origin, no forms, no
 * navigation of the window), its document starting with SNAPSHOT_CSP. A snapshot that cannot be
 * read (a run file carries no media) says so.
 */
export function DomFrame({ runId, path, label, viewport }: DomFrameProps) {
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
  if (!shown) return <p className="muted empty-shot">Reading the {label}…</p>;
  if (shown.text === undefined) {
    return <p className="muted media-missing">{label}: not available (a run file carries no media; import a bundle to keep it).</p>;
  }
  const style = viewport ? ({ "--page-width": `${viewport.width}px`, "--page-height": `${viewport.height}px` } as CSSProperties) : undefined;
  return <iframe className="dom-frame" title={label} sandbox="" referrerPolicy="no-referrer" srcDoc={snapshotDocument(shown.text)} style={style} data-testid="dom-frame" />;
}
