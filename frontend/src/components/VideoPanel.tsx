import { useEffect, useRef } from "react";
import { Media } from "./Media";

/** Props of VideoPanel. */
export interface VideoPanelProps {
  runId: string;
  /** The video's path in the run's media folder. */
  path: string;
  /** The chosen moment, in ms from the attempt's start; choosing another seeks the video to it. */
  seekMs: number;
  /**
   * False when the choice came from the video itself (its time moved into another step), so
   * the video keeps playing where it is instead of jumping back to the step's start.
   */
  follow: boolean;
  /** Called with the video's time, in ms, as it plays or is seeked. */
  onTime(ms: number): void;
}

/**
 * The attempt's recorded video, on the trace's one selection: choosing a moment seeks to it,
 * and its time updates report where it is, so the selection follows it.
 */
export function VideoPanel({ runId, path, seekMs, follow, onTime }: VideoPanelProps) {
  const ref = useRef<HTMLVideoElement>(null);

  // Seek when the choice changes (and once the video can seek, below).
  useEffect(() => {
    const v = ref.current;
    if (v && follow && v.readyState >= 1) v.currentTime = seekMs / 1000;
  }, [seekMs, follow]);

  return (
    <Media
      runId={runId}
      path={path}
      kind="video"
      label="Recorded video"
      video={{
        ref,
        testId: "attempt-video",
        onLoadedMetadata: (e) => {
          e.currentTarget.currentTime = seekMs / 1000;
        },
        onTimeUpdate: (e) => onTime(Math.round(e.currentTarget.currentTime * 1000)),
      }}
    />
  );
}
