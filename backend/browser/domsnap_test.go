package browser

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"observatory/backend/agent"
)

// hostilePage builds, once loaded, a DOM holding each way a page runs or goes somewhere on its
// own (a script, an onerror handler, a javascript: link, a meta refresh, a custom element's
// constructor), beside text, a shadow root, fields and a same-origin style sheet. The handler
// and the constructor count their runs (window.pwned, window.built), once each on load.
const hostilePage = `<!doctype html><html><head><title>Bookings</title><link rel="stylesheet" href="/site.css">
<script>window.ran = (window.ran || 0) + 1;
customElements.define("x-built", class extends HTMLElement { constructor() { super(); window.built = (window.built || 0) + 1 } });</script></head><body>
<x-built></x-built>
<h1>Reservation saved</h1>
<label>Title <input name="title"></label><label>Key <input name="key"></label>
<label>Password <input type="password" name="pw"></label><label><input type="checkbox" name="ok"> Agree</label>
<div id="host"></div>
<script>
document.body.insertAdjacentHTML("beforeend", '<img src="missing.png" onerror="window.pwned = (window.pwned || 0) + 1"><a href="javascript:window.pwned = 2">run</a>');
const m = document.createElement("meta"); m.httpEquiv = "refresh"; m.content = "300;url=/gone"; document.head.append(m);
document.getElementById("host").attachShadow({ mode: "open" }).innerHTML = "<p>Inside the shadow</p>";
</script></body></html>`

// TestADOMSnapshotIsTheStaticPage records the hostile page's DOM beside its screenshot: the
// snapshot holds the page's text (the shadow root's too), the typed values and the check,
// the style sheet's rules, and none of the script, handler, script URL or refresh; the
// password and a secret value are not in it. The live page is not changed by it: no script,
// handler or constructor of its runs again, and its image is not fetched again.
func TestADOMSnapshotIsTheStaticPage(t *testing.T) {
	t.Parallel()
	var imageFetches atomic.Int32 // of the page's own missing.png, not the barrier's
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing.png" {
			if r.URL.RawQuery == "" {
				imageFetches.Add(1)
			}
			http.NotFound(w, r)
			return
		}
		if r.URL.Path == "/site.css" {
			w.Header().Set("Content-Type", "text/css")
			_, _ = w.Write([]byte("h1 { color: rebeccapurple }"))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(hostilePage))
	}))
	page, dir := openSnapshotting(t, srv)
	page.(agent.SecretKeeper).KeepSecret("hunter2-key")
	for _, f := range []struct{ name, value string }{{"Title", "Standup"}, {"Key", "hunter2-key"}, {"Password", "pa55word"}} {
		mustAct(t, page, agent.ActFill, "textbox", f.name, f.value)
	}
	mustAct(t, page, agent.ActCheck, "checkbox", "Agree", "")
	s := mustObserve(t, page)
	if s.Screenshot == "" || !strings.HasSuffix(s.DOM, ".dom.txt") || s.DOMSkipped != "" {
		t.Fatalf("the sample names screenshot %q and DOM snapshot %q (skipped: %q)", s.Screenshot, s.DOM, s.DOMSkipped)
	}
	data, err := os.ReadFile(filepath.Join(dir, s.DOM))
	if err != nil {
		t.Fatal(err)
	}
	snap := string(data)
	for _, want := range []string{"<title>Bookings</title>", "Reservation saved", `<template shadowrootmode="open"><p>Inside the shadow</p></template>`,
		`value="Standup"`, `value="••••••"`, `checked=""`, "rebeccapurple", `<img src="missing.png"/>`} {
		if !strings.Contains(snap, want) {
			t.Errorf("the snapshot lacks %q:\n%s", want, snap)
		}
	}
	for _, gone := range []string{"<script", "onerror", "javascript:", "refresh", "pwned", "window.ran", "hunter2", "pa55word", "site.css"} {
		if strings.Contains(snap, gone) {
			t.Errorf("the snapshot still holds %q:\n%s", gone, snap)
		}
	}
	// What the snapshot could set off in the live page comes later, on the image's answer: the
	// page is read once an image asked for after the snapshot has failed too.
	live, err := page.(*Page).page.Evaluate(`() => new Promise((done) => {
		const barrier = new Image();
		barrier.onerror = () => done([window.ran, window.pwned, window.built,
			document.querySelectorAll("link[rel=stylesheet], script, meta[http-equiv]").length,
			document.querySelector("input[name=title]").getAttribute("value")]);
		barrier.src = "/missing.png?barrier";
	})`)
	if err != nil {
		t.Fatal(err)
	}
	if got := live.([]any); got[0] != 1 || got[1] != 1 || got[2] != 1 || got[3] != 4 || got[4] != nil {
		t.Errorf("the live page after the snapshot: script ran %v, error handler %v, constructor %v times, %v links, scripts and metas, title attribute %v; want 1, 1, 1, 4 and none", got[0], got[1], got[2], got[3], got[4])
	}
	if n := imageFetches.Load(); n != 1 {
		t.Errorf("the page's image was fetched %d times, want once: the snapshot fetched it again", n)
	}
	if again := mustObserve(t, page); again.DOM != s.DOM {
		t.Errorf("an unchanged page's snapshot is %q, want the same file %q", again.DOM, s.DOM)
	}
}

// TestADOMPastTheBoundIsNotKept observes a page whose DOM is past agent.MaxDOMBytes: its
// sample names no snapshot and says why; with snapshots off a sample says nothing of one.
func TestADOMPastTheBoundIsNotKept(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><title>Big</title><p>` + strings.Repeat("word ", agent.MaxDOMBytes/4) + `</p>`))
	}))
	t.Cleanup(srv.Close)
	ctx := context.Background()
	for _, dom := range []bool{true, false} {
		page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{Media: agent.Media{DOM: dom}, MediaDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _, _ = page.Close() })
		if err := page.Goto(ctx, srv.URL); err != nil {
			t.Fatal(err)
		}
		s := mustObserve(t, page)
		switch {
		case dom && (s.DOM != "" || !strings.Contains(s.DOMSkipped, "2.5 MiB, more than the 2 MiB")):
			t.Errorf("a 2.5 MiB DOM: snapshot %q, skipped %q; want none, and why", s.DOM, s.DOMSkipped)
		case !dom && (s.DOM != "" || s.DOMSkipped != "" || s.Screenshot != ""):
			t.Errorf("with snapshots off the sample names %q, %q, %q", s.DOM, s.DOMSkipped, s.Screenshot)
		}
	}
}

// TestADOMSnapshotMarksTheModalAndTheScroll records a page scrolled down with a modal dialog
// open beside a dialog merely open: the snapshot marks the modal one alone and says how far the
// page was scrolled, which its markup does not hold and its boxes depend on.
func TestADOMSnapshotMarksTheModalAndTheScroll(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><title>Modal</title><body style="height: 3000px">
<dialog id="modal"><p>Modal</p></dialog><dialog id="plain" open><p>Plain</p></dialog>
<script>window.scrollTo(0, 500); document.getElementById("modal").showModal();</script></body>`))
	}))
	page, dir := openSnapshotting(t, srv)
	s := mustObserve(t, page)
	data, err := os.ReadFile(filepath.Join(dir, s.DOM))
	if err != nil {
		t.Fatalf("read the snapshot %q: %v", s.DOM, err)
	}
	snap := string(data)
	for _, want := range []string{`data-observatory-scroll="0 500"`, `<dialog id="modal" open="" data-observatory-modal="">`, `<dialog id="plain" open="">`} {
		if !strings.Contains(snap, want) {
			t.Errorf("the snapshot lacks %q:\n%s", want, snap)
		}
	}
}

// openSnapshotting opens a page that keeps screenshots and DOM snapshots in a folder of its
// own at srv's address, closed (and srv with it) when t ends, and returns it and the folder.
func openSnapshotting(t *testing.T, srv *httptest.Server) (agent.Page, string) {
	t.Helper()
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	page, err := testBrowser(t).NewPage(context.Background(), agent.PageOptions{Media: agent.Media{Screenshots: true, DOM: true}, MediaDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	if err := page.Goto(context.Background(), srv.URL); err != nil {
		t.Fatal(err)
	}
	return page, dir
}
