/** The URL of a file in a run's media folder, served at /media/<runID>/<path> by both transports. */
export function mediaURL(runId: string, path: string): string {
  return `/media/${encodeURIComponent(runId)}/${path.split("/").map(encodeURIComponent).join("/")}`;
}
