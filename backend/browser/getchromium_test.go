package browser

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/browser/browsertest/cdntest"
)

// standIn serves a stand-in Chromium zip (see cdntest) with padding bytes of filler, whose
// script marks marker, at the path Playwright's installer downloads Chromium from, and points
// PLAYWRIGHT_DOWNLOAD_HOST at it, as at a mirror. It returns the host and the zip's size.
func standIn(t *testing.T, marker string, padding int) (*cdntest.Host, int) {
	t.Helper()
	pc, err := LocatePlaywrightChromium()
	if err != nil {
		t.Fatal(err)
	}
	exe, err := filepath.Rel(pc.Dir, pc.Executable)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(pc.URL)
	if err != nil || !strings.HasPrefix(u.Path, "/builds/cft/") {
		t.Fatalf("Playwright's Chromium downloads from %s, not from Playwright's builds/cft/ layout (%v)", pc.URL, err)
	}
	body := cdntest.ChromiumZip(t, filepath.ToSlash(exe), marker, padding)
	host := cdntest.Serve(t, u.Path, body)
	t.Setenv("PLAYWRIGHT_DOWNLOAD_HOST", host.URL)
	return host, len(body)
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
	_, size := standIn(t, marker, 1<<20)

	if c, err := noSystemBrowsers.Choose(""); !errors.Is(err, ErrNoChromium) {
		t.Fatalf("before the download Choose = %+v, %v; want ErrNoChromium", c, err)
	}
	var log progressLog
	exe, err := DownloadChromium(context.Background(), log.record)
	if err != nil {
		t.Fatalf("DownloadChromium: %v", err)
	}
	if got := log.get("chromium"); got.Done != int64(size) || got.Total != int64(size) {
		t.Errorf("last download progress %+v, want %d of %d bytes", got, size, size)
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
	host, _ := standIn(t, os.DevNull, 4<<20)
	host.Slow(true)

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
	host, _ := standIn(t, os.DevNull, 1<<20)
	host.Slow(true)
	saved := stallTimeout
	stallTimeout = 300 * time.Millisecond
	t.Cleanup(func() { stallTimeout = saved })
	_, err := DownloadChromium(context.Background(), func(Progress) {})
	if err == nil || !strings.Contains(err.Error(), "no data from the host") {
		t.Errorf("a stalled download = %v, want it ended saying no data came", err)
	}
}
