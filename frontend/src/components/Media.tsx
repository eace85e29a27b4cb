import { useState } from "react";
import { mediaURL } from "../media";

/** Props of Media. */
export interface MediaProps {
  runId: string;
  /** The file's path in the run's media folder. */
  path: string;
  kind: "image" | "video";
  label: string;
}

/**
 * A screenshot or video from a run's media folder. When the file cannot be loaded (an
 * imported run carries no media) it says so instead of showing a broken element.
 */
export function Media({ runId, path, kind, label }: MediaProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const src = mediaURL(runId, path);
  if (failed === src) return <p className="muted media-missing">{label}: not available (imported runs carry no media).</p>;
  return kind === "image" ? (
    <img className="shot" src={src} alt={label} onError={() => setFailed(src)} />
  ) : (
    <video className="shot video" controls src={src} aria-label={label} onError={() => setFailed(src)} />
  );
}
