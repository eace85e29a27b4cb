// @vitest-environment jsdom
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Step } from "../api/types";
import { savesNormally } from "../test/fixtures";
import { DomFrame, MODAL_STYLE, SNAPSHOT_CSP, scrollOf, snapshotDocument } from "./DomFrame";
import { ShotViewer } from "./ShotViewer";

const hostile = `<!DOCTYPE html><html><head><script>parent.pwned = 1</script></head><body><p>Reservation saved</p><img src="http://attacker.test/x" onerror="parent.pwned = 2"></body></html>`;

/** Serves the media files named (path to text) to fetch, 404 for any other. */
function serve(files: Record<string, string>) {
  const fetch = vi.fn(async (url: string) => {
    const text = files[url];
    return text === undefined ? new Response("no such file", { status: 404 }) : new Response(text, { headers: { "Content-Type": "text/plain" } });
  });
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe("snapshotDocument", () => {
  it("puts the policy first, after the doctype so the page keeps its mode", () => {
    const meta = `<meta http-equiv="Content-Security-Policy" content="${SNAPSHOT_CSP}">${MODAL_STYLE}`;
    expect(snapshotDocument(hostile)).toBe("<!DOCTYPE html>" + meta + hostile.slice("<!DOCTYPE html>".length));
    expect(snapshotDocument("<script>1</script><p>x</p>")).toBe(meta + "<script>1</script><p>x</p>");
    expect(SNAPSHOT_CSP).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:");
  });
  it("reads where the page was scrolled, at its top when the snapshot does not say", () => {
    expect(scrollOf('<!DOCTYPE html><html lang="en" data-observatory-scroll="0 500"><body></body></html>')).toEqual({ x: 0, y: 500 });
    expect(scrollOf("<html><body><p data-observatory-scroll=\"9 9\"></p></body></html>")).toEqual({ x: 0, y: 0 });
  });
  it("drops every link that would connect on its own, whatever its case or company, and keeps the rest", () => {
    const page =
      '<!DOCTYPE html><html><head><link rel="preconnect" href="http://evil.test/"><link rel=" DNS-Prefetch " href="//evil.test">' +
      '<link rel="icon prefetch" href="http://evil.test/i.ico"><link rel="preload" as="image" href="http://evil.test/p.png">' +
      '<link rel="modulepreload" href="http://evil.test/m.js"><link rel="stylesheet" href="s.css"></head><body><p>text</p></body></html>';
    const shown = snapshotDocument(page);
    expect(shown).not.toContain("evil.test");
    expect(shown).toContain('<link rel="stylesheet" href="s.css">');
    expect(shown).toContain("<p>text</p>");
    expect(shown.startsWith("<!DOCTYPE html><meta http-equiv=")).toBe(true);
  });
});

describe("DomFrame", () => {
  it("shows the snapshot in a frame with no permission at all, the policy before its markup", async () => {
    const fetch = serve({ "/media/r1/a.dom.txt": hostile });
    render(<DomFrame runId="r1" path="a.dom.txt" label="After DOM snapshot" viewport={{ width: 1000, height: 700 }} />);
    const frame = await screen.findByTitle("After DOM snapshot");
    expect(fetch).toHaveBeenCalledWith("/media/r1/a.dom.txt", { credentials: "same-origin" });
    expect(frame.tagName).toBe("IFRAME");
    expect(frame.getAttribute("sandbox")).toBe("");
    expect(frame.getAttribute("src")).toBeNull();
    expect(frame.getAttribute("srcdoc")).toBe(snapshotDocument(hostile));
    expect(screen.getByTestId("dom-stage").style.getPropertyValue("--page-width")).toBe("1000px");
    // A shield over the frame takes every click: no link of the snapshot is followed.
    expect(screen.getByTestId("dom-shield").parentElement).toBe(frame.parentElement);
  });

  it("gives the frame its same origin alone while picking, never scripts", async () => {
    serve({ "/media/r1/a.dom.txt": hostile });
    const { rerender } = render(<DomFrame runId="r1" path="a.dom.txt" label="After DOM snapshot" picking />);
    expect((await screen.findByTitle("After DOM snapshot")).getAttribute("sandbox")).toBe("allow-same-origin");
    expect(screen.getByTitle("After DOM snapshot").hasAttribute("inert")).toBe(false);
    rerender(<DomFrame runId="r1" path="a.dom.txt" label="After DOM snapshot" picking={false} />);
    expect(screen.getByTitle("After DOM snapshot").getAttribute("sandbox")).toBe("");
    // Out of picking no key reaches it either (a link focused by Tab would be followed on Enter).
    expect(screen.getByTitle("After DOM snapshot").hasAttribute("inert")).toBe(true);
  });

  it("says so when the snapshot is not there", async () => {
    serve({});
    render(<DomFrame runId="r1" path="gone.dom.txt" label="Before DOM snapshot" />);
    expect(await screen.findByText(/Before DOM snapshot: not available/)).toBeTruthy();
    expect(screen.queryByTitle("Before DOM snapshot")).toBeNull();
  });
});

describe("ShotViewer's DOM toggle", () => {
  const base = savesNormally.steps![0];
  const withDom: Step = {
    ...base,
    before: { ...base.before, screenshot: "b.jpg", dom_skipped: "the page's DOM was 2.5 MiB, more than the 2 MiB a snapshot keeps" },
    after: { ...base.after, screenshot: "a.jpg", dom: "a.dom.txt" },
  };
  const viewer = (step: Step) => (
    <ShotViewer runId="r1" step={step} seekMs={0} follow view={null} onView={() => {}} onTime={() => {}} heading={<h3>Step</h3>} facts={null} />
  );

  it("is offered only where the step kept a snapshot, and shows it in place of the screenshots", async () => {
    serve({ "/media/r1/a.dom.txt": hostile });
    const { rerender } = render(viewer({ ...withDom, before: { ...withDom.before, dom_skipped: undefined }, after: { ...withDom.after, dom: undefined } }));
    expect(screen.queryByRole("button", { name: "DOM" })).toBeNull();
    rerender(viewer(withDom));
    fireEvent.click(screen.getByRole("button", { name: "DOM" }));
    expect(screen.getByRole("button", { name: "DOM" }).getAttribute("aria-pressed")).toBe("true");
    expect(await screen.findByTitle("After DOM snapshot")).toBeTruthy();
    expect(screen.getByText(/No DOM snapshot was kept here: the page's DOM was 2.5 MiB/)).toBeTruthy();
    expect(screen.queryByRole("img", { name: "After screenshot" })).toBeNull();
    // The picker: a toggle, P and Esc from anywhere but a field, a line saying how to pick.
    const pick = screen.getByRole("button", { name: "Pick element" });
    expect(pick.getAttribute("aria-pressed")).toBe("false");
    fireEvent.keyDown(document.body, { key: "p" });
    expect(pick.getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByRole("status", { name: "Picked element" }).textContent).toMatch(/click it for its target/);
    expect(screen.getByTitle("After DOM snapshot").getAttribute("sandbox")).toBe("allow-same-origin");
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(pick.getAttribute("aria-pressed")).toBe("false");
    expect(screen.queryByRole("status", { name: "Picked element" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "DOM" }));
    await waitFor(() => expect(screen.getByRole("img", { name: "After screenshot" })).toBeTruthy());
    expect(screen.queryByRole("button", { name: "Pick element" })).toBeNull();
    expect(screen.queryByTitle("After DOM snapshot")).toBeNull();
  });
});
