// Export and import of run files: native dialogs in the desktop, a download and a file input
// in a browser. Only the desktop/browser split lives here; the calls go through the client.
import type { Api } from "./client";
import type { ImportResult } from "./types";

/**
 * Exports run id and returns what happened in words, or "" when the user cancelled. In the
 * desktop it opens the native save dialog; in a browser it downloads the JSON.
 */
export async function exportRun(api: Api, id: string, doc: Document = document): Promise<string> {
  if (api.kind === "wails") {
    const path = await api.files.exportDialog(id);
    return path ? `Exported to ${path}` : "";
  }
  const text = await api.files.exportJSON(id);
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const name = `observatory-run-${id}.json`;
  const a = doc.createElement("a");
  a.href = url;
  a.download = name;
  doc.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000); // after the browser has taken the blob
  return `Downloaded ${name}`;
}

/** Imports a file the user picked in a browser's file input. */
export async function importFile(api: Api, file: File): Promise<ImportResult> {
  return api.files.importJSON(file.name, await file.text());
}
