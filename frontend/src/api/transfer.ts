// Export and import of runs, as a run file (.json), a bundle (.zip with the run's videos and
// screenshots) or a report (.html, self-contained, for anyone): native dialogs in the desktop,
// a download and a file input in a browser. Only
// the desktop/browser split lives here; the backend is reached through the client.
import { mediaURL } from "../media";
import type { Api } from "./client";

/** What to export: the run file alone, the bundle with its media, or the HTML report. */
export type ExportFormat = "file" | "bundle" | "report";

/** Each format's native save dialog (desktop), and its name and contents as a download (browser). */
const FORMATS: Record<ExportFormat, { dialog(api: Api, id: string): Promise<string>; name(id: string): string; blob(api: Api, id: string): Promise<Blob> }> = {
  file: {
    dialog: (api, id) => api.files.exportDialog(id),
    name: (id) => `observatory-run-${id}.json`,
    blob: async (api, id) => new Blob([await api.files.exportJSON(id)], { type: "application/json" }),
  },
  bundle: {
    dialog: (api, id) => api.files.exportBundleDialog(id),
    name: (id) => `observatory-run-${id}.zip`,
    blob: (api, id) => api.files.bundle(id),
  },
  report: {
    dialog: (api, id) => api.files.exportReportDialog(id),
    name: (id) => `observatory-report-${id}.html`,
    blob: async (api, id) => new Blob([await api.files.exportReport(id)], { type: "text/html" }),
  },
};

/**
 * Exports run id and returns what happened in words, or "" when the user cancelled. In the
 * desktop it opens the native save dialog; in a browser it downloads the file.
 */
export async function exportRun(api: Api, id: string, format: ExportFormat, doc: Document = document): Promise<string> {
  const f = FORMATS[format];
  if (api.kind === "wails") {
    const path = await f.dialog(api, id);
    return path ? `Exported to ${path}` : "";
  }
  const name = f.name(id);
  saveBlob(doc, await f.blob(api, id), name);
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

/**
 * Exports the recorded network requests of attempt slug of run id as a HAR 1.2 file and
 * returns what happened in words, or "" when the user cancelled: the native save dialog in
 * the desktop, a download in a browser.
 */
export async function exportHAR(api: Api, id: string, slug: string, doc: Document = document): Promise<string> {
  if (api.kind === "wails") {
    const path = await api.files.exportHARDialog(id, slug);
    return path ? `Exported the HAR to ${path}` : "";
  }
  const name = `observatory-${id}-${slug}.har`;
  saveBlob(doc, new Blob([await api.files.exportHAR(id, slug)], { type: "application/json" }), name);
  return `Downloaded ${name}`;
}

/**
 * Saves the action ledger of attempt slug of run id as CSV where the user chooses and returns
 * what happened in words, or "" when the user cancelled: the native save dialog in the
 * desktop, a download in a browser.
 */
export async function exportLedger(api: Api, id: string, slug: string, doc: Document = document): Promise<string> {
  if (api.kind === "wails") {
    const path = await api.files.exportLedgerDialog(id, slug);
    return path ? `Exported the ledger to ${path}` : "";
  }
  const name = `observatory-ledger-${id}-${slug}.csv`;
  saveBlob(doc, new Blob([await api.files.exportLedger(id, slug)], { type: "text/csv" }), name);
  return `Downloaded ${name}`;
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
