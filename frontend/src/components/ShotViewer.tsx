import { useState, type ReactNode } from "react";
import type { Step } from "../api/types";
import { boxesOf } from "../trace/boxes";
import { Help } from "./Help";
import { ShotFrame } from "./ShotFrame";
import { VideoPanel } from "./VideoPanel";

/** What the centre shows: the page before or after the step, the live page, or the video. */
export type View = "before" | "after" | "live" | "video";

/** Zoom levels: fit the pane, or the screenshot's own pixels times the factor. */
const ZOOMS = ["fit", 1, 2] as const;
type Zoom = (typeof ZOOMS)[number];

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
  /** The user's choice; null shows the live page while there is one, else the page after. */
  view: View | null;
  onView(v: View): void;
  /** The newest live screenshot of a running attempt, as a media path. */
  liveFrame?: string;
  /** The newest screencast frame of a running attempt, as a data: URL; it wins over liveFrame. */
  liveScreen?: string;
  /** The recorded video's media path, when there is one. */
  video?: string;
  onTime(ms: number): void;
  /** The step's heading, at the left of the bar, and its facts under it. */
  heading: ReactNode;
  facts: ReactNode;
}

/**
 * The one large picture of the chosen step: its screenshot before or after, the live page
 * while the attempt runs, or the recorded video (seeking to the chosen moment). Screenshots zoom:
 * fit, 100 % or 200 %, scrolling inside the pane. A step's screenshot carries the acted-on
 * element's box (before the action) and a miss's nearest candidates, dashed and labelled;
 * a toggle hides them.
 */
export function ShotViewer({ runId, step, pending, seekMs, follow, view, onView, liveFrame, liveScreen, video, onTime, heading, facts }: ShotViewerProps) {
  const [zoom, setZoom] = useState<Zoom>("fit");
  const [showBoxes, setShowBoxes] = useState(true);
  const views: { id: View; label: string }[] = [
    { id: "before", label: "Before" },
    { id: "after", label: "After" },
    ...(liveFrame || liveScreen ? [{ id: "live" as const, label: "Live" }] : []),
    ...(video ? [{ id: "video" as const, label: "Video" }] : []),
  ];
  const shown = views.find((v) => v.id === view)?.id ?? (liveFrame || liveScreen ? "live" : "after");
  const shot = shown === "live" ? liveFrame : shown === "before" ? step?.before.screenshot : shown === "after" ? step?.after.screenshot : undefined;
  const label = shown === "live" ? "Live page" : `${shown === "before" ? "Before" : "After"} screenshot`;
  const hasBoxes = Boolean(step?.target_box || step?.candidates?.length);
  const boxes = step && showBoxes && (shown === "before" || shown === "after") ? boxesOf(step, shown) : [];
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
        {hasBoxes && shown !== "live" && shown !== "video" && (
          <span className="boxes-toggle">
            <button type="button" aria-pressed={showBoxes} onClick={() => setShowBoxes((b) => !b)}>
              Boxes
            </button>
            <Help term="boxes" topic="the boxes on the screenshot" />
            {showBoxes && shown === "after" && boxes.length === 0 && <span className="muted">box on Before</span>}
          </span>
        )}
        {step && shown !== "live" && shown !== "video" && (
          <span className="muted num">at {(shown === "before" ? step.before : step.after).at_ms} ms</span>
        )}
      </div>
      {facts}
      <div className={`shot-area zoom-${zoom}`} data-testid="shot-area">
        {shown === "live" && liveScreen ? (
          <img className="shot" src={liveScreen} alt="Live page" data-testid="live-screen" />
        ) : shown === "video" && video ? (
          <VideoPanel runId={runId} path={video} seekMs={seekMs} follow={follow} onTime={onTime} />
        ) : shot ? (
          <ShotFrame key={shot} runId={runId} path={shot} label={label} boxes={boxes} />
        ) : pending && shown !== "live" ? (
          <p className="muted empty-shot">{pending}</p>
        ) : (
          <p className="muted empty-shot">{step || liveFrame ? "No screenshot was taken here (screenshots are off in Settings)." : "No step yet."}</p>
        )}
      </div>
    </section>
  );
}
