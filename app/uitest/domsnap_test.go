package uitest

import (
	"archive/zip"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"
)

// TestAHostileDOMSnapshotRunsNothing records an attempt with DOM snapshots on, exports its
// bundle, replaces every DOM snapshot in it with a stranger's markup (a script, an onerror
// handler, a meta refresh, a frame, a style sheet and images, all pointing at a server of
// the attacker's) and imports it: DOM shows the stranger's text, yet nothing of it runs (no
// element its scripts would add appears, no dialog opens) and the attacker's server hears
// nothing, not even once the refresh was due.
func TestAHostileDOMSnapshotRunsNothing(t *testing.T) {
	var heard atomic.Int32
	attacker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		heard.Add(1)
		t.Logf("the attacker's server heard %s %s", r.Method, r.URL)
	}))
	t.Cleanup(attacker.Close)
	evil := attacker.URL
	hostileDOM := `<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0;url=` + evil + `/refresh">
<link rel="stylesheet" href="` + evil + `/sheet.css"><script src="` + evil + `/script.js"></script>
<script>document.addEventListener("DOMContentLoaded", () => document.body.insertAdjacentHTML("beforeend", "<p id=ran>a script ran</p>")); alert(1)</script></head>
<body style="background: url(` + evil + `/bg.png)"><h1>A stranger's page</h1>
<img src="` + evil + `/img.png" onerror="document.body.insertAdjacentHTML('beforeend', '<p id=handled>a handler ran</p>')">
<img src="x.png" onerror="document.body.insertAdjacentHTML('beforeend', '<p id=handled>a handler ran</p>')">
<iframe src="` + evil + `/frame"></iframe><a href="javascript:alert(2)">a link</a></body></html>`

	srv := newServer(t)
	page := openPage(t, srv)
	dialogs := 0
	page.OnDialog(func(d playwright.Dialog) { dialogs++; _ = d.Dismiss() })
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
	time.Sleep(1500 * time.Millisecond) // past the refresh, the images' loads and their errors
	for i := range 2 {
		inside := frames.Nth(i).ContentFrame()
		must(t, "see no script's or handler's mark", expect.Locator(inside.Locator("#ran, #handled")).ToHaveCount(0))
		must(t, "see the frame not navigated", expect.Locator(inside.GetByRole("heading", playwright.FrameLocatorGetByRoleOptions{Name: "A stranger's page"})).ToBeVisible())
	}
	if n := heard.Load(); n != 0 || dialogs != 0 {
		t.Errorf("the stranger's snapshot reached the attacker's server %d times and opened %d dialogs", n, dialogs)
	}
	snap(t, page, "hostile-dom-snapshot")
}

// replaceDOMSnapshots writes a copy of the bundle at path whose every DOM snapshot holds dom,
// and returns the copy's path.
func replaceDOMSnapshots(t *testing.T, path, dom string) string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	must(t, "open the bundle", err)
	defer zr.Close()
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	replaced := 0
	for _, f := range zr.File {
		rc, err := f.Open()
		must(t, "read "+f.Name, err)
		data, err := io.ReadAll(rc)
		rc.Close()
		must(t, "read "+f.Name, err)
		if strings.HasSuffix(f.Name, ".dom.txt") {
			data = []byte(dom)
			replaced++
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: f.Method})
		must(t, "write "+f.Name, err)
		_, err = w.Write(data)
		must(t, "write "+f.Name, err)
	}
	must(t, "close the bundle", zw.Close())
	if replaced == 0 {
		t.Fatal("the bundle holds no DOM snapshot")
	}
	copyPath := filepath.Join(t.TempDir(), "hostile.zip")
	must(t, "write the hostile bundle", os.WriteFile(copyPath, out.Bytes(), 0o644))
	return copyPath
}
