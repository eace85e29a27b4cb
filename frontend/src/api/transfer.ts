// Export and import of runs, as a run file (.json), a bundle (.zip with the run's videos and
// screenshots) or a report (.html, self-contained, for anyone): native dialogs in the desktop,
// a download and a file input in a browser. Only
// the desktop/browser split lives here; the backend is reached through the client.
import { mediaURL } from "../media";
import type { Api } from "./client";

/**
 * What to export (app.ExportFormat): the run file, the bundle with its media, the HTML report,
 * or one attempt's requests (HAR) or action ledger (CSV).
 */
export type ExportFormat = "run" | "bundle" | "report" | "har" | "ledger";

/**
 * What the UI says each format is once saved, and its download's name and type in a browser;
 * the backend's table (app/exports.go) writes each. The bundle, no text, downloads from its
 * own URL.
 */
const FORMATS: Record<ExportFormat, { what: string; name(id: string, slug: string): string; type: string }> = {
  run: { what: "", name: (id) => `observatory-run-${id}.json`, type: "application/json" },
  bundle: { what: "", name: (id) => `observatory-run-${id}.zip`, type: "application/zip" },
  report: { what: "", name: (id) => `observatory-report-${id}.html`, type: "text/html" },
  har: { what: "the HAR ", name: (id, slug) => `observatory-${id}-${slug}.har`, type: "application/json" },
  ledger: { what: "the ledger ", name: (id, slug) => `observatory-ledger-${id}-${slug}.csv`, type: "text/csv" },
};

/**
 * Exports run id, or its attempt slug for the formats that hold one attempt, and returns what
 * happened in words, or "" when the user cancelled. In the desktop it opens the native save
 * dialog; in a browser it downloads the file.
 */
export async function exportRun(api: Api, id: string, format: ExportFormat, slug = "", doc: Document = document): Promise<string> {
  const f = FORMATS[format];
  if (api.kind === "wails") {
    const path = await api.files.exportDialog(format, id, slug);
    return path ? `Exported ${f.what}to ${path}` : "";
  }
  const name = f.name(id, slug);
  const blob = format === "bundle" ? await api.files.bundle(id) : new Blob([await api.files.export(format, id, slug)], { type: f.type });
  saveBlob(doc, blob, name);
  return `Downloaded ${name}`;
}

/**
 * Saves one of a run's media files (its Playwright trace, say) where the user chooses and
 * returns what happened in words, or "" when the user cancelled: the native save dialog in
 * the desktop, a download in a browser. The download is read first and handed over only once
 * the server has sent it, so a file the run lacks (an imported run file carries no media) is
 * an error, never "Downloaded".
 */
export async function saveMedia(api: Api, id: string, name: string, doc: Document = document): Promise<string> {
  if (api.kind === "wails") {
    const path = await api.files.saveMediaDialog(id, name);
    return path ? `Saved ${name} to ${path}` : "";
  }
  const res = await fetch(mediaURL(id, name), { credentials: "same-origin" });
  if (!res.ok) {
    throw new Error(res.status === 404 ? `run ${id} has no file ${name} here (an imported run file carries no media; import its bundle)` : `the server answered ${res.status} ${res.statusText}`);
  }
  saveBlob(doc, await res.blob(), name);
  return `Downloaded ${name}`;
}

/**
 * Whether run id's media file name is on disk, where the window can offer it: false for a
 * file an imported run file names but did not carry, or that was deleted since.
 */
export async function mediaExists(id: string, name: string): Promise<boolean> {
  try {
    const res = await fetch(mediaURL(id, name), { method: "HEAD", credentials: "same-origin" });
    return res.ok;
  } catch {
    return false;
  }
}

/** Hands blob to the browser as a download named name, through an <a download>. */
function saveBlob(doc: Document, blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  download(doc, url, name);
  setTimeout(() => URL.revokeObjectURL(url), 1000); // after the browser has taken the blob
}

function download(doc: Document, href: string, name: string) {
  const a = doc.createElement("a");
  a.href = href;
  a.download = name;
  doc.body.appendChild(a);
  a.click();
  a.remove();
}
