import { useEffect, useState, type ReactNode, type Ref, type SyntheticEvent } from "react";
import { desktopVideoURL, inDesktop } from "../api/client";
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
  /** For an image: called once it has loaded, with the element (for its natural size). */
  onImageLoad?(img: HTMLImageElement): void;
  /** What to show instead when the file cannot be loaded, where the sentence has no room (a thumbnail). */
  missing?: ReactNode;
}

/** Why a file of a run's media cannot be shown, in words. */
export const MISSING = "not available (a run file carries no media; import a bundle to keep it).";

/**
 * A screenshot or video from a run's media folder. When the file cannot be loaded (a run file
 * carries no media; a bundle does) it says so instead of showing a broken element.
 */
export function Media({ runId, path, kind, label, video, onImageLoad, missing }: MediaProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const src = mediaURL(runId, path);
  const playable = usePlayable(kind === "video" ? src : null, () => setFailed(src));
  if (failed === src) {
    if (missing !== undefined) return missing;
    return <p className="muted media-missing">{label}: {MISSING}</p>;
  }
  return kind === "image" ? (
    <img className="shot" src={src} alt={label} onError={() => setFailed(src)} onLoad={(e) => onImageLoad?.(e.currentTarget)} />
  ) : (
    <video
      className="shot video"
      controls
      preload="auto"
      src={playable ?? undefined}
      aria-label={label}
      ref={video?.ref}
      data-testid={video?.testId}
      onLoadedMetadata={video?.onLoadedMetadata}
      onTimeUpdate={video?.onTimeUpdate}
      onError={() => setFailed(src)}
    />
  );
}

/**
 * The source a <video> plays src from: src itself in a browser; inside the desktop a blob
 * URL (see desktopVideoURL), revoked when src changes.
 */
function usePlayable(src: string | null, onError: () => void): string | null {
  const desktop = inDesktop();
  const [playable, setPlayable] = useState<string | null>(null);
  useEffect(() => {
    if (!src || !desktop) return;
    let live = true;
    let made: string | null = null;
    desktopVideoURL(src).then(
      (url) => {
        made = url;
        if (live) setPlayable(url);
        else URL.revokeObjectURL(url);
      },
      () => live && onError(),
    );
    return () => {
      live = false;
      setPlayable(null);
      if (made) URL.revokeObjectURL(made);
    };
    // onError is a fresh closure each render; src alone decides what to load.
  }, [src, desktop]);
  return desktop ? playable : src;
}
