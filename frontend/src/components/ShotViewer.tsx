import { useState, type ReactNode } from "react";
import type { Step } from "../api/types";
import { Media } from "./Media";
import { VideoPanel } from "./VideoPanel";

/** What the centre shows: the page before or after the step, the live page, or the video. */
export type View = "before" | "after" | "live" | "video";

/** Zoom levels: fit the pane, or the screenshot's own pixels times the factor. */
const ZOOMS = ["fit", 1, 2] as const;
type Zoom = (typeof ZOOMS)[number];

/** Props of ShotViewer. */
export interface ShotViewerProps {
  runId: string;
  step?: Step;
  steps: Step[];
  current: number;
  /** The user's choice; null shows the live page while there is one, else the page after. */
  view: View | null;
  onView(v: View): void;
  /** The newest live screenshot of a running attempt, as a media path. */
  liveFrame?: string;
  /** The newest screencast frame of a running attempt, as a data: URL; it wins over liveFrame. */
  liveScreen?: string;
  /** The recorded video's media path, when there is one. */
  video?: string;
  onPlaying(k: number | null): void;
  /** The step's heading, at the left of the bar, and its facts under it. */
  heading: ReactNode;
  facts: ReactNode;
}

/**
 * The one large picture of the chosen step: its screenshot before or after, the live page
 * while the attempt runs, or the recorded video (seeking to the step). Screenshots zoom: fit,
 * 100 % or 200 %, scrolling inside the pane.
 */
export function ShotViewer({ runId, step, steps, current, view, onView, liveFrame, liveScreen, video, onPlaying, heading, facts }: ShotViewerProps) {
  const [zoom, setZoom] = useState<Zoom>("fit");
  const views: { id: View; label: string }[] = [
    { id: "before", label: "Before" },
    { id: "after", label: "After" },
    ...(liveFrame || liveScreen ? [{ id: "live" as const, label: "Live" }] : []),
    ...(video ? [{ id: "video" as const, label: "Video" }] : []),
  ];
  const shown = views.find((v) => v.id === view)?.id ?? (liveFrame || liveScreen ? "live" : "after");
  const shot = shown === "live" ? liveFrame : shown === "before" ? step?.before.screenshot : shown === "after" ? step?.after.screenshot : undefined;
  const label = shown === "live" ? "Live page" : `${shown === "before" ? "Before" : "After"} screenshot`;
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
        {step && shown !== "live" && shown !== "video" && (
          <span className="muted num">at {(shown === "before" ? step.before : step.after).at_ms} ms</span>
        )}
      </div>
      {facts}
      <div className={`shot-area zoom-${zoom}`} data-testid="shot-area">
        {shown === "live" && liveScreen ? (
          <img className="shot" src={liveScreen} alt="Live page" data-testid="live-screen" />
        ) : shown === "video" && video ? (
          <VideoPanel runId={runId} path={video} steps={steps} current={current} onPlaying={onPlaying} />
        ) : shot ? (
          <Media key={shot} runId={runId} path={shot} kind="image" label={label} />
        ) : (
          <p className="muted empty-shot">{step || liveFrame ? "No screenshot was taken here (screenshots are off in Settings)." : "No step yet."}</p>
        )}
      </div>
    </section>
  );
}
