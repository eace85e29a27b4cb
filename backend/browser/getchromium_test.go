package browser

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/browser/browsertest/policy"
)

// debianChromium is the system Chromium the fake Playwright Chromium hands over to.
func debianChromium(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		policy.Unavailable(t, fmt.Errorf("no Debian chromium on PATH for the fake Playwright Chromium to run: %w", err))
	}
	return path
}

// fakeChromiumZip is a zip in the layout of Playwright's Chromium download for this system,
// whose "chrome" is a script that leaves a mark in marker and runs the real Chromium; padding
// bytes of filler make it big enough to watch a download progress.
func fakeChromiumZip(t *testing.T, marker string, padding int) []byte {
	t.Helper()
	build, ok := cftBuilds[runtime.GOOS+"/"+runtime.GOARCH]
	if !ok || runtime.GOOS != "linux" {
		t.Skip("the fake Chromium is a shell script that runs Debian's: Linux only")
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, mode os.FileMode, data []byte) {
		h := &zip.FileHeader{Name: name, Method: zip.Store}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	script := fmt.Sprintf("#!/bin/sh\necho launched >> %q\nexec %q \"$@\"\n", marker, debianChromium(t))
	add(build.zip+"/"+build.exe[0], 0o755, []byte(script))
	add(build.zip+"/filler.bin", 0o644, bytes.Repeat([]byte{0x5a}, padding))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// downloadHost serves body at the path Playwright's installer downloads Chromium from, as a
// mirror named by PLAYWRIGHT_DOWNLOAD_HOST does; anything else is 404. With slow set it sends
// half the body and then holds the connection until the client goes.
func fakeDownloadHost(t *testing.T, body []byte, slow bool) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pc, err := LocatePlaywrightChromium()
		if err != nil || !strings.HasSuffix(pc.URL, r.URL.Path) || !strings.HasPrefix(r.URL.Path, "/builds/cft/") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		if !slow {
			_, _ = w.Write(body)
			return
		}
		_, _ = w.Write(body[:len(body)/2])
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	t.Setenv("PLAYWRIGHT_DOWNLOAD_HOST", srv.URL)
}

// progressLog records progress reports.
type progressLog struct {
	mu   sync.Mutex
	last map[string]Progress
}

func (l *progressLog) record(p Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.last == nil {
		l.last = map[string]Progress{}
	}
	l.last[p.Phase] = p
}

func (l *progressLog) get(phase string) Progress {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last[phase]
}

// noSystemBrowsers is a machine with no Chrome, Edge or Chromium installed.
var noSystemBrowsers = Locator{System: func() []Candidate { return nil }}

// leftIn lists what is in dir.
func leftIn(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestDownloadChromiumThenLaunch downloads Playwright's Chromium from a mirror on 127.0.0.1,
// finds it where Playwright keeps it, and really launches it: the "chrome" it serves is a
// script that marks its start and runs Debian's Chromium, which opens a page.
func TestDownloadChromiumThenLaunch(t *testing.T) {
	needDriver(t)
	browsers, marker := t.TempDir(), filepath.Join(t.TempDir(), "launched")
	t.Setenv("PLAYWRIGHT_BROWSERS_PATH", browsers)
	t.Setenv("OBSERVATORY_CHROMIUM", "")
	body := fakeChromiumZip(t, marker, 1<<20)
	fakeDownloadHost(t, body, false)

	if c, err := noSystemBrowsers.Choose(""); !errors.Is(err, ErrNoChromium) {
		t.Fatalf("before the download Choose = %+v, %v; want ErrNoChromium", c, err)
	}
	var log progressLog
	exe, err := DownloadChromium(context.Background(), log.record)
	if err != nil {
		t.Fatalf("DownloadChromium: %v", err)
	}
	if got := log.get("chromium"); got.Done != int64(len(body)) || got.Total != int64(len(body)) {
		t.Errorf("last download progress %+v, want %d of %d bytes", got, len(body), len(body))
	}
	if got := log.get("unpack"); got.Done != 2 || got.Total != 2 {
		t.Errorf("last unpack progress %+v, want 2 of 2 files", got)
	}
	pc, err := LocatePlaywrightChromium()
	if err != nil || !pc.Installed() || exe != pc.Executable {
		t.Fatalf("after the download: %+v installed=%v, %v; DownloadChromium said %s", pc, pc.Installed(), err, exe)
	}
	if names := leftIn(t, browsers); len(names) != 1 || names[0] != filepath.Base(pc.Dir) {
		t.Errorf("the browser folder holds %q, want only %s", names, filepath.Base(pc.Dir))
	}

	chosen, err := noSystemBrowsers.Choose("")
	if err != nil || chosen.Kind != KindPlaywright || chosen.Path != exe {
		t.Fatalf("after the download Choose = %+v, %v; want Playwright's Chromium at %s", chosen, err, exe)
	}
	b, err := Launch(context.Background(), Options{Headless: true, ExecutablePath: chosen.Path})
	if err != nil {
		t.Fatalf("launch the downloaded Chromium: %v", err)
	}
	defer b.Close()
	page, err := b.Playwright().NewPage()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := page.Goto(labServer(t)); err != nil {
		t.Fatalf("open a page: %v", err)
	}
	if err := playwright.NewPlaywrightAssertions(10_000).Locator(page.GetByRole("heading").First()).ToBeVisible(); err != nil {
		t.Errorf("the downloaded Chromium shows no heading: %v", err)
	}
	if mark, err := os.ReadFile(marker); err != nil || !strings.Contains(string(mark), "launched") {
		t.Errorf("the downloaded chrome script did not run (%q, %v)", mark, err)
	}

	// A second call finds it installed and downloads nothing.
	if again, err := DownloadChromium(context.Background(), func(p Progress) { t.Errorf("downloaded again: %+v", p) }); err != nil || again != exe {
		t.Errorf("DownloadChromium again = %s, %v", again, err)
	}
}

// TestDownloadChromiumCancelLeavesNothing cancels a download the host has sent half of:
// it ends at once with the cancellation, and Playwright's browser folder holds nothing.
func TestDownloadChromiumCancelLeavesNothing(t *testing.T) {
	needDriver(t)
	browsers := t.TempDir()
	t.Setenv("PLAYWRIGHT_BROWSERS_PATH", browsers)
	fakeDownloadHost(t, fakeChromiumZip(t, os.DevNull, 4<<20), true)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	start := time.Now()
	_, err := DownloadChromium(ctx, func(p Progress) {
		if p.Done > 0 {
			once.Do(cancel)
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled DownloadChromium = %v, want context.Canceled", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the cancelled download took %s to end", took)
	}
	if names := leftIn(t, browsers); len(names) != 0 {
		t.Errorf("a cancelled download left %q in the browser folder", names)
	}
	if c, err := noSystemBrowsers.Choose(""); !errors.Is(err, ErrNoChromium) {
		t.Errorf("after a cancelled download Choose = %+v, %v; want ErrNoChromium", c, err)
	}
}

// TestDownloadChromiumUnreachableHost fails fast, saying the host cannot be reached and what
// to do, when nothing answers at the download host; nothing is left behind.
func TestDownloadChromiumUnreachableHost(t *testing.T) {
	needDriver(t)
	browsers := t.TempDir()
	t.Setenv("PLAYWRIGHT_BROWSERS_PATH", browsers)
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close() // its port now refuses connections
	t.Setenv("PLAYWRIGHT_DOWNLOAD_HOST", closed.URL)

	start := time.Now()
	_, err := DownloadChromium(context.Background(), func(Progress) {})
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("DownloadChromium = %v, want ErrUnreachable", err)
	}
	for _, want := range []string{"no internet access", "PLAYWRIGHT_DOWNLOAD_HOST", strings.TrimPrefix(closed.URL, "http://")} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("failing took %s, want it fast", took)
	}
	if names := leftIn(t, browsers); len(names) != 0 {
		t.Errorf("a failed download left %q", names)
	}
}

// TestDownloadChromiumStalledHost ends a transfer that stops moving, with an error saying so.
func TestDownloadChromiumStalledHost(t *testing.T) {
	needDriver(t)
	t.Setenv("PLAYWRIGHT_BROWSERS_PATH", t.TempDir())
	fakeDownloadHost(t, fakeChromiumZip(t, os.DevNull, 1<<20), true)
	saved := stallTimeout
	stallTimeout = 300 * time.Millisecond
	t.Cleanup(func() { stallTimeout = saved })
	_, err := DownloadChromium(context.Background(), func(Progress) {})
	if err == nil || !strings.Contains(err.Error(), "no data from the host") {
		t.Errorf("a stalled download = %v, want it ended saying no data came", err)
	}
}
