import { useState, type Ref, type SyntheticEvent } from "react";
import { mediaURL } from "../media";

/** What a video's owner needs from its element: a handle and its time events. */
export interface VideoHooks {
  ref?: Ref<HTMLVideoElement>;
  testId?: string;
  onLoadedMetadata?(e: SyntheticEvent<HTMLVideoElement>): void;
  onTimeUpdate?(e: SyntheticEvent<HTMLVideoElement>): void;
}

/** Props of Media. */
export interface MediaProps {
  runId: string;
  /** The file's path in the run's media folder. */
  path: string;
  kind: "image" | "video";
  label: string;
  /** For a video: the element's ref and event handlers. */
  video?: VideoHooks;
}

/**
 * A screenshot or video from a run's media folder. When the file cannot be loaded (a run file
 * carries no media; a bundle does) it says so instead of showing a broken element.
 */
export function Media({ runId, path, kind, label, video }: MediaProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const src = mediaURL(runId, path);
  if (failed === src) {
    return <p className="muted media-missing">{label}: not available (a run file carries no media; import a bundle to keep it).</p>;
  }
  return kind === "image" ? (
    <img className="shot" src={src} alt={label} onError={() => setFailed(src)} />
  ) : (
    <video
      className="shot video"
      controls
      preload="auto"
      src={src}
      aria-label={label}
      ref={video?.ref}
      data-testid={video?.testId}
      onLoadedMetadata={video?.onLoadedMetadata}
      onTimeUpdate={video?.onTimeUpdate}
      onError={() => setFailed(src)}
    />
  );
}
