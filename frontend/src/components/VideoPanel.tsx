import { useEffect, useRef } from "react";
import type { Step } from "../api/types";
import { seekTime, stepAt } from "../trace/videoSync";
import { Media } from "./Media";

/** Props of VideoPanel. */
export interface VideoPanelProps {
  runId: string;
  /** The video's path in the run's media folder. */
  path: string;
  steps: Step[];
  /** The chosen step's position in steps; choosing another seeks the video to it. */
  current: number;
  /** Called with the position of the step the playing video is in, or null between steps. */
  onPlaying(k: number | null): void;
}

/**
 * The attempt's recorded video, kept in step with the trace: choosing a step seeks to its
 * start; while it plays, onPlaying reports the step at the current time.
 */
export function VideoPanel({ runId, path, steps, current, onPlaying }: VideoPanelProps) {
  const ref = useRef<HTMLVideoElement>(null);
  const step = steps[current];
  const seekTo = step ? seekTime(step) : 0;

  // Seek when the chosen step changes (and once the video can seek, below).
  useEffect(() => {
    const v = ref.current;
    if (v && v.readyState >= 1) v.currentTime = seekTo;
  }, [seekTo]);

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
          e.currentTarget.currentTime = seekTo;
        },
        onTimeUpdate: (e) => onPlaying(stepAt(e.currentTarget.currentTime, steps)),
      }}
    />
  );
}
