package app

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"observatory/backend/browser"
	"observatory/backend/browser/browsertest/policy"
)

// setupEvents is an Emitter that passes on the browser setup's events.
type setupEvents chan SetupState

func (e setupEvents) Emit(name string, data any) {
	if name == EventBrowserSetup {
		e <- data.(SetupState)
	}
}

// noBrowsers is a machine with no Chrome, Edge or Chromium installed.
var noBrowsers = browser.Locator{System: func() []browser.Candidate { return nil }}

// newBrowsers is the Browsers service over a fresh settings file, on a machine without
// browsers whose Playwright browser folder is empty.
func newBrowsers(t *testing.T) (*Browsers, setupEvents) {
	t.Helper()
	t.Setenv("PLAYWRIGHT_BROWSERS_PATH", t.TempDir())
	t.Setenv("OBSERVATORY_CHROMIUM", "")
	events := make(setupEvents, 1024)
	b := &Browsers{locator: noBrowsers, settings: &Settings{path: filepath.Join(t.TempDir(), "settings.json")}, emit: events}
	t.Cleanup(b.CancelSetup)
	return b, events
}

func TestBrowserStatusUsesTheChosenBrowser(t *testing.T) {
	b, _ := newBrowsers(t)
	st, err := b.Status()
	if err != nil {
		t.Fatal(err)
	}
	last := st.Candidates[len(st.Candidates)-1]
	if st.Ready || st.Chosen != nil || !strings.Contains(st.BrowserProblem, "no browser found") || last.Kind != browser.KindPlaywright || last.Found {
		t.Errorf("with no browser: %+v", st)
	}
	if st.Command != SetupCommand || st.Setup.State != SetupIdle {
		t.Errorf("command %q, setup %+v", st.Command, st.Setup)
	}

	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ path, problem string }{{self, ""}, {"/nonexistent/chrome", "/nonexistent/chrome"}} {
		set := DefaultSettings()
		set.BrowserPath = tt.path
		if err := b.settings.Save(set); err != nil {
			t.Fatal(err)
		}
		st, err := b.Status()
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tt.problem == "" && (st.Chosen == nil || st.Chosen.Path != self || st.Chosen.Kind != browser.KindNamed):
			t.Errorf("with %s chosen, runs use %+v", self, st.Chosen)
		case tt.problem != "" && (st.Chosen != nil || !strings.Contains(st.BrowserProblem, tt.problem)):
			t.Errorf("with a missing browser chosen: chosen %+v, problem %q", st.Chosen, st.BrowserProblem)
		}
	}
}

// TestBrowserStatusNamesTheHeadlessShell: with a headless shell beside the browser found,
// the status says headless runs use it; a browser chosen by path has none.
func TestBrowserStatusNamesTheHeadlessShell(t *testing.T) {
	b, _ := newBrowsers(t)
	dir := t.TempDir()
	for _, name := range []string{"chromium", "chromium-headless-shell"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("\x7fELF a browser"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	full := filepath.Join(dir, "chromium")
	b.locator = browser.Locator{System: func() []browser.Candidate {
		return []browser.Candidate{{Kind: browser.KindChromium, Label: "Chromium", Path: full}}
	}}
	st, err := b.Status()
	if err != nil {
		t.Fatal(err)
	}
	if st.Chosen == nil || st.Chosen.Path != full || st.Headless == nil || st.Headless.Path != filepath.Join(dir, "chromium-headless-shell") {
		t.Errorf("runs use %+v, headless runs %+v; want the shell beside %s", st.Chosen, st.Headless, full)
	}
	set := DefaultSettings()
	set.BrowserPath = full
	if err := b.settings.Save(set); err != nil {
		t.Fatal(err)
	}
	if st, err := b.Status(); err != nil || st.Headless != nil {
		t.Errorf("with %s chosen by path, headless runs use %+v (%v), want it", full, st.Headless, err)
	}
}

// TestBrowserSetupUnreachableHost runs the setup where the download host cannot be reached:
// a second setup is refused while it runs, and it ends failed, saying why, within seconds.
func TestBrowserSetupUnreachableHost(t *testing.T) {
	if err := browser.Install(context.Background()); err != nil {
		policy.Unavailable(t, err)
	}
	b, events := newBrowsers(t)
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	t.Setenv("PLAYWRIGHT_DOWNLOAD_HOST", closed.URL)

	if err := b.Setup(); err != nil {
		t.Fatalf("Setup: %v", err)
	}
	if err := b.Setup(); !errors.Is(err, ErrSetupGoing) {
		t.Errorf("a second Setup while one runs = %v, want ErrSetupGoing", err)
	}
	deadline := time.After(60 * time.Second)
	for {
		select {
		case s := <-events:
			if s.State == SetupRunning {
				continue
			}
			if s.State != SetupFailed || !strings.Contains(s.Error, "no internet access") {
				t.Fatalf("the setup ended %+v, want failed for no internet access", s)
			}
			if st, err := b.Status(); err != nil || st.Setup.State != SetupFailed || st.Ready {
				t.Errorf("Status after the failure: %+v, %v", st, err)
			}
			return
		case <-deadline:
			t.Fatal("the setup did not end within 60 s")
		}
	}
}
