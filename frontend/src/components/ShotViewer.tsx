import { useEffect, useMemo, useState, type ReactNode } from "react";
import { noShotWhy } from "./noShot";
import type { Step } from "../api/types";
import { boxesOf, type Shot } from "../trace/boxes";
import { diffSamples, diffSummary } from "../trace/diff";
import { modified, ownsKeys } from "../keys";
import { DomFrame } from "./DomFrame";
import type { Picked } from "./DomStage";
import { Help } from "./Help";
import { PickedLocator } from "./PickedLocator";
import { ShotFrame } from "./ShotFrame";
import { VideoPanel } from "./VideoPanel";

/**
 * What the centre shows: the page before and after the step side by side, one of them alone,
 * the live page, or the video.
 */
export type View = "pair" | "before" | "after" | "live" | "video";

/** Zoom levels: fit the pane, or the screenshot's own pixels times the factor. */
const ZOOMS = ["fit", 1, 2] as const;
type Zoom = (typeof ZOOMS)[number];

/** The centre of the step's target (else its nearest candidate) as fractions of its viewport; undefined when it has neither. */
function focusOf(step?: Step): { x: number; y: number } | undefined {
  const b = step?.target_box ?? step?.candidates?.[0]?.box;
  if (!b || !b.viewport_width || !b.viewport_height) return undefined;
  return { x: (b.x + b.width / 2) / b.viewport_width, y: (b.y + b.height / 2) / b.viewport_height };
}

/** Props of ShotViewer. */
export interface ShotViewerProps {
  runId: string;
  /** The chosen step whole; absent while there is none, or while it is read (pending says so). */
  step?: Step;
  pending?: string;
  /** The chosen moment, in ms, where the video seeks to. */
  seekMs: number;
  /** False when the choice came from the video's own time (see VideoPanel). */
  follow: boolean;
  /** The user's choice; null shows the live page while there is one, else before and after side by side. */
  view: View | null;
  onView(v: View): void;
  /** The newest live screenshot of a running attempt, as a media path. */
  liveFrame?: string;
  /** The newest screencast frame of a running attempt, as a data: URL; it wins over liveFrame. */
  liveScreen?: string;
  /** The recorded video's media path, when there is one. */
  video?: string;
  /** The attempt's evidence level ("lean" keeps screenshots only where something went wrong). */
  evidence?: string;
  onTime(ms: number): void;
  /** The step's heading, at the left of the bar, and its facts under it. */
  heading: ReactNode;
  facts: ReactNode;
}

/**
 * The pictures of the chosen step: its screenshots before and after side by side with what
 * changed between them in a line under them, or one of them alone, the live page while the
 * attempt runs, or the recorded video (seeking to the chosen moment). Screenshots zoom: fit,
 * 100 % or 200 %, scrolling inside their pane. A step's screenshots carry the acted-on
 * element's box (measured before the action) and a miss's nearest candidates, dashed and
 * labelled; a toggle hides them. Where the step kept DOM snapshots, *DOM* shows them in place
 * of the screenshots, each in a frame that runs nothing (see DomFrame), fitted and boxed as the
 * screenshots are; there *Pick element* (or P; Esc ends it) highlights the element under the
 * pointer, and a click on one gives its target in the task file's syntax (see PickedLocator).
 */
export function ShotViewer({ runId, step, pending, seekMs, follow, view, onView, liveFrame, liveScreen, video, evidence, onTime, heading, facts }: ShotViewerProps) {
  const [zoom, setZoom] = useState<Zoom>("fit");
  const [showBoxes, setShowBoxes] = useState(true);
  const [showDom, setShowDom] = useState(false);
  const [picking, setPicking] = useState(false);
  /** The element picked, with the snapshot it was picked in (a pick belongs to its snapshot). */
  const [picked, setPicked] = useState<(Picked & { path: string }) | null>(null);
  const views: { id: View; label: string }[] = [
    { id: "pair", label: "Side by side" },
    { id: "before", label: "Before" },
    { id: "after", label: "After" },
    ...(liveFrame || liveScreen ? [{ id: "live" as const, label: "Live" }] : []),
    ...(video ? [{ id: "video" as const, label: "Video" }] : []),
  ];
  const shown = views.find((v) => v.id === view)?.id ?? (liveFrame || liveScreen ? "live" : "pair");
  const still = shown === "pair" || shown === "before" || shown === "after";
  const hasDom = Boolean(step?.before.dom || step?.after.dom || step?.before.dom_skipped || step?.after.dom_skipped);
  const dom = still && showDom && hasDom;
  const pickOn = dom && picking;
  const hasBoxes = Boolean(step?.target_box || step?.candidates?.length);
  // P turns picking on and off while the DOM is shown, Esc turns it off, from anywhere but a field.
  useEffect(() => {
    if (!dom) return;
    const onKey = (e: KeyboardEvent) => {
      if (ownsKeys(e.target) || modified(e)) return;
      if (e.key === "p" || e.key === "P") setPicking((p) => !p);
      else if (e.key === "Escape" && picking) setPicking(false);
      else return;
      e.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [dom, picking]);
  const shownPick = picked && (picked.path === step?.before.dom || picked.path === step?.after.dom) ? picked : null;
  const focus = useMemo(() => focusOf(step), [step]);
  const changed = useMemo(() => (step ? diffSummary(diffSamples(step.before, step.after)) : null), [step]);
  /** One screenshot of the step in its own pane, with its boxes, or its DOM snapshot; a message where there is none. */
  const side = (which: Shot) => {
    const sample = step?.[which];
    if (dom && sample) {
      const label = `${which === "before" ? "Before" : "After"} DOM snapshot`;
      const path = sample.dom;
      return path ? (
        <DomFrame
          key={path}
          runId={runId}
          path={path}
          label={label}
          viewport={sample.viewport}
          boxes={step && showBoxes ? boxesOf(step, which) : []}
          focus={focus}
          zoom={zoom}
          picking={pickOn}
          onPick={(p) => setPicked({ ...p, path })}
        />
      ) : (
        <p className="muted empty-shot">No DOM snapshot was kept here{sample.dom_skipped ? `: ${sample.dom_skipped}` : "."}</p>
      );
    }
    const path = sample?.screenshot;
    const label = `${which === "before" ? "Before" : "After"} screenshot`;
    return path ? (
      <ShotFrame
        key={path}
        runId={runId}
        path={path}
        label={label}
        boxes={step && showBoxes ? boxesOf(step, which) : []}
        pixelRatio={sample.pixel_ratio}
        focus={focus}
        zoom={zoom}
      />
    ) : (
      <p className="muted empty-shot">{pending ?? (step ? noShotWhy(evidence) : "No step yet.")}</p>
    );
  };
  return (
    <section className="shot-viewer" aria-label="Page">
      <div className="shot-bar">
        {heading}
        <div role="group" aria-label="Show" className="segmented">
          {views.map((v) => (
            <button key={v.id} type="button" aria-pressed={shown === v.id} onClick={() => onView(v.id)}>
              {v.label}
            </button>
          ))}
        </div>
        {shown !== "video" && (
          <div role="group" aria-label="Zoom" className="segmented">
            {ZOOMS.map((z) => (
              <button key={z} type="button" aria-pressed={zoom === z} onClick={() => setZoom(z)}>
                {z === "fit" ? "Fit" : `${z * 100}%`}
              </button>
            ))}
          </div>
        )}
        {hasDom && still && (
          <span className="boxes-toggle">
            <button type="button" aria-pressed={showDom} onClick={() => setShowDom((d) => !d)}>
              DOM
            </button>
            <Help term="dom" topic="the page's DOM snapshot" />
          </span>
        )}
        {dom && (
          <button
            type="button"
            aria-pressed={pickOn}
            aria-label="Pick element"
            aria-keyshortcuts="P"
            title="Pick element (P): highlight the element under the pointer; a click gives its target"
            onClick={() => setPicking((p) => !p)}
          >
            Pick
          </button>
        )}
        {hasBoxes && still && (
          <span className="boxes-toggle">
            <button type="button" aria-pressed={showBoxes} onClick={() => setShowBoxes((b) => !b)}>
              Boxes
            </button>
            <Help term="boxes" topic="the boxes on the screenshot" />
          </span>
        )}
        {step && (shown === "before" || shown === "after") && <span className="muted num">at {step[shown].at_ms} ms</span>}
      </div>
      {facts}
      {shown === "pair" ? (
        <div className="shot-pair" data-testid="shot-area">
          {(["before", "after"] as const).map((which) => (
            <figure key={which} className="shot-side">
              <figcaption className="muted">
                <strong>{which === "before" ? "Before" : "After"}</strong>{" "}
                {step && <span className="num">at {step[which].at_ms} ms</span>}{" "}
                {which === "after" && changed && (
                  <span className="shot-diff" data-testid="shot-diff" title={changed}>
                    · {changed}
                  </span>
                )}
              </figcaption>
              <div className={`shot-area zoom-${zoom}`}>{side(which)}</div>
            </figure>
          ))}
        </div>
      ) : (
        <div className={`shot-area zoom-${zoom}`} data-testid="shot-area">
          {shown === "live" && liveScreen ? (
            <img className="shot" src={liveScreen} alt="Live page" data-testid="live-screen" />
          ) : shown === "video" && video ? (
            <VideoPanel runId={runId} path={video} seekMs={seekMs} follow={follow} onTime={onTime} />
          ) : shown === "live" && liveFrame ? (
            <ShotFrame key={liveFrame} runId={runId} path={liveFrame} label="Live page" boxes={[]} />
          ) : shown === "before" || shown === "after" ? (
            side(shown)
          ) : (
            <p className="muted empty-shot">{step || liveFrame ? noShotWhy(evidence) : "No step yet."}</p>
          )}
        </div>
      )}
      {pickOn && <PickedLocator picked={shownPick} />}
    </section>
  );
}
