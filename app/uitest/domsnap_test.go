package uitest

import (
	"archive/zip"
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
	"observatory/backend/bundle"
)

// TestAHostileDOMSnapshotRunsNothing records an attempt with DOM snapshots on, exports its
// bundle, replaces every DOM snapshot in it with a stranger's markup (a script, an onerror
// handler, a meta refresh, a frame, a style sheet and images, all pointing at a server of
// the attacker's, and links that preconnect, prefetch or preload from it) and imports it, each
// snapshot renamed by its new content as an attacker would, so that the bundle's names check
// out: DOM shows the stranger's text, yet nothing of it runs (no
// element its scripts would add appears, no dialog opens) and the attacker's server hears
// nothing, not even once the refresh was due, nor while picking, its link clicked.
func TestAHostileDOMSnapshotRunsNothing(t *testing.T) {
	var heard, connected atomic.Int32
	attacker := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		heard.Add(1)
		t.Logf("the attacker's server heard %s %s", r.Method, r.URL)
	}))
	// A preconnect opens a connection and sends nothing: count connections, not requests.
	attacker.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			connected.Add(1)
		}
	}
	attacker.Start()
	t.Cleanup(attacker.Close)
	evil := attacker.URL
	hostileDOM := `<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0;url=` + evil + `/refresh">
<link rel="stylesheet" href="` + evil + `/sheet.css"><script src="` + evil + `/script.js"></script>
<link rel="preconnect" href="` + evil + `/"><link rel="dns-prefetch" href="` + evil + `/"><link rel="prefetch" href="` + evil + `/prefetch">
<link rel="preload" as="image" href="` + evil + `/preload.png"><link rel="modulepreload" href="` + evil + `/module.js">
<script>document.addEventListener("DOMContentLoaded", () => document.body.insertAdjacentHTML("beforeend", "<p id=ran>a script ran</p>")); alert(1)</script></head>
<body style="background: url(` + evil + `/bg.png)"><h1>A stranger's page</h1>
<img src="` + evil + `/img.png" onerror="document.body.insertAdjacentHTML('beforeend', '<p id=handled>a handler ran</p>')">
<img src="x.png" onerror="document.body.insertAdjacentHTML('beforeend', '<p id=handled>a handler ran</p>')">
<iframe src="` + evil + `/frame"></iframe><a href="javascript:alert(2)">a link</a></body></html>`

	srv := newServer(t)
	page := openPage(t, srv)
	var dialogs atomic.Int32 // counted on the driver's goroutine
	page.OnDialog(func(d playwright.Dialog) { dialogs.Add(1); _ = d.Dismiss() })
	must(t, "open the settings", button(page, "Settings").Click())
	must(t, "turn DOM snapshots on", page.GetByLabel("DOM snapshots beside them").Check())
	must(t, "save", button(page, "Save").Click())
	must(t, "close the settings", button(page, "Settings").Click())
	runAttempt(t, page, noticeTitle, "failed")
	bundlePath := exportAs(t, page, "Export bundle")

	replaced := replaceDOMSnapshots(t, bundlePath, hostileDOM)
	must(t, "click Reset", button(page, "Reset").Click())
	importFile(t, page, replaced)
	must(t, "see the run marked imported", expect.Locator(page.GetByRole("heading", playwright.PageGetByRoleOptions{Name: "Attempts imported"})).ToBeVisible())
	must(t, "open the imported attempt", row(page, noticeTitle).Click())
	must(t, "show the DOM snapshots", button(page, "DOM").Click())
	frames := page.Locator("iframe.dom-frame")
	must(t, "see before and after", expect.Locator(frames).ToHaveCount(2))
	for i := range 2 {
		if sandbox, err := frames.Nth(i).GetAttribute("sandbox"); err != nil || sandbox != "" {
			t.Errorf("snapshot frame %d is sandboxed as %q (%v), want no permission at all", i, sandbox, err)
		}
		inside := frames.Nth(i).ContentFrame()
		must(t, "see the stranger's text", expect.Locator(inside.GetByRole("heading", playwright.FrameLocatorGetByRoleOptions{Name: "A stranger's page"})).ToBeVisible())
	}
	for i := range 2 {
		inside := frames.Nth(i).ContentFrame()
		settled(t, page, inside) // past the images' loads and their errors, and the refresh once due
		must(t, "see no script's or handler's mark", expect.Locator(inside.Locator("#ran, #handled")).ToHaveCount(0))
		must(t, "see the frame not navigated", expect.Locator(inside.GetByRole("heading", playwright.FrameLocatorGetByRoleOptions{Name: "A stranger's page"})).ToBeVisible())
	}
	if n, c := heard.Load(), connected.Load(); n != 0 || c != 0 || dialogs.Load() != 0 {
		t.Errorf("the stranger's snapshot reached the attacker's server %d times (%d connections) and opened %d dialogs", n, c, dialogs.Load())
	}
	snap(t, page, "hostile-dom-snapshot")

	// Picking gives the frames their same origin, never scripts: still nothing runs, nothing is
	// fetched, a click on the stranger's link follows nothing.
	must(t, "pick", button(page, "Pick element").Click())
	must(t, "see the frames given their same origin alone", expect.Locator(frames.First()).ToHaveAttribute("sandbox", "allow-same-origin"))
	inside := frames.First().ContentFrame()
	must(t, "see the stranger's text again", expect.Locator(inside.GetByRole("heading", playwright.FrameLocatorGetByRoleOptions{Name: "A stranger's page"})).ToBeVisible())
	link, err := inside.GetByText("a link").BoundingBox()
	must(t, "find the stranger's link", err)
	// The click is handled once the picked element's locator names the link; the frame then
	// settles, past any navigation the click would have started.
	pickAt(t, page, page.GetByTestId("picked-locator"), link.X+link.Width/2, link.Y+link.Height/2)
	expectContains(t, page.GetByTestId("picked-locator"), "a link")
	settled(t, page, inside)
	must(t, "see no script's or handler's mark while picking", expect.Locator(inside.Locator("#ran, #handled")).ToHaveCount(0))
	must(t, "see the frame not navigated while picking", expect.Locator(inside.GetByRole("heading", playwright.FrameLocatorGetByRoleOptions{Name: "A stranger's page"})).ToBeVisible())
	if n, c := heard.Load(), connected.Load(); n != 0 || c != 0 || dialogs.Load() != 0 {
		t.Errorf("picking in the stranger's snapshot reached the attacker's server %d times (%d connections) and opened %d dialogs", n, c, dialogs.Load())
	}
}

// replaceDOMSnapshots writes a copy of the bundle at path whose every DOM snapshot holds dom,
// named by its content as the bundle's names must be (the run file's references renamed with
// it), and returns the copy's path.
func replaceDOMSnapshots(t *testing.T, path, dom string) string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	must(t, "open the bundle", err)
	defer zr.Close()
	entries := map[string][]byte{}
	renamed := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		must(t, "read "+f.Name, err)
		data, err := io.ReadAll(rc)
		rc.Close()
		must(t, "read "+f.Name, err)
		entries[f.Name] = data
		if strings.HasSuffix(f.Name, agent.DOMExt) {
			renamed[strings.TrimPrefix(f.Name, bundle.MediaPrefix)] = agent.ContentName([]byte(dom), agent.DOMExt)
		}
	}
	if len(renamed) == 0 {
		t.Fatal("the bundle holds no DOM snapshot")
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	written := map[string]bool{}
	for _, f := range zr.File {
		name, data := f.Name, entries[f.Name]
		if to, ok := renamed[strings.TrimPrefix(name, bundle.MediaPrefix)]; ok {
			name, data = bundle.MediaPrefix+to, []byte(dom)
			if written[name] { // every snapshot now holds dom: one file serves them all
				continue
			}
			written[name] = true
		} else if !strings.HasPrefix(name, bundle.MediaPrefix) {
			for from, to := range renamed {
				data = bytes.ReplaceAll(data, []byte(from), []byte(to))
			}
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: f.Method})
		must(t, "write "+name, err)
		_, err = w.Write(data)
		must(t, "write "+name, err)
	}
	must(t, "close the bundle", zw.Close())
	copyPath := filepath.Join(t.TempDir(), "hostile.zip")
	must(t, "write the hostile bundle", os.WriteFile(copyPath, out.Bytes(), 0o644))
	return copyPath
}

// settled waits until the frame's document has loaded (every image loaded or failed, their
// handlers past), polling, since a frame without scripts runs no timer of the test's, then
// lets the window's event loop turn twice: what the load would set off (a refresh due at
// once, a handler, a script) has had its turn then.
func settled(t *testing.T, page playwright.Page, frame playwright.FrameLocator) {
	t.Helper()
	root := frame.Locator(":root")
	for deadline := time.Now().Add(uiTimeout * time.Millisecond); ; time.Sleep(50 * time.Millisecond) {
		done, err := root.Evaluate(`r => r.ownerDocument.readyState === "complete" && [...r.ownerDocument.images].every((i) => i.complete)`, nil,
			playwright.LocatorEvaluateOptions{Timeout: playwright.Float(uiTimeout)})
		must(t, "see whether the snapshot has loaded", err)
		if done == true {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the snapshot did not finish loading")
		}
	}
	turned(t, page)
}
