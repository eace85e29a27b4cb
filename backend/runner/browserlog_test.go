//go:build linux

package runner_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
	"observatory/backend/browser/browsertest/proctest"
	"observatory/backend/labs/booking"
	"observatory/backend/runfile"
	"observatory/backend/runner"
	"observatory/backend/store"
)

// TestKilledChromiumKeepsItsLogApartFromTheReason kills Chromium's process group mid-attempt:
// as an attempt chooses a room and, separately, as another submits. The attempt ends failed
// with a one-line reason saying the browser went; what Playwright appended to the error that
// revealed the death (Chromium's launch log: its command line, what it printed, its exit) is
// the attempt's browser log, not part of the reason, and it is stored and exported with the
// attempt. (A Chromium that dies at launch: see browser's TestLaunchOfADyingChromium.)
func TestKilledChromiumKeepsItsLogApartFromTheReason(t *testing.T) {
	browsertest.Ready(t)
	proctest.Adopt(t)
	for _, tt := range []struct {
		name, slug string
		anchor     int // the kill lands delay after the anchor-th step ends
		delay      time.Duration
	}{{"as it chooses a room", "saves-normally", 2, 0}, {"as it submits", "slow-save-condition-wait", 3, 0}} {
		t.Run(tt.name, func(t *testing.T) {
			c := &chaos{t: t, schedule: []attemptLog{{anchor: tt.anchor, delay: tt.delay, victim: "Chromium"}}}
			dir := t.TempDir()
			st, err := store.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			var log lockedBuffer
			r := &runner.Runner{Suite: booking.New(), Launch: c.launch(&log), Recorder: st, Emit: c.emit}
			run, err := r.Run(context.Background(), "killed", runner.Options{Attempts: []string{tt.slug}, MediaRoot: filepath.Join(dir, "media")})
			if err != nil {
				t.Fatal(err)
			}
			a := run.Attempts[0]
			t.Logf("%s: %s; browser log %d bytes, starting %.200q", a.Terminal, a.Reason, len(a.BrowserLog), a.BrowserLog)
			if c.logs[0].killed.IsZero() {
				t.Fatal("the attempt ended before Chromium was killed")
			}
			if a.Terminal != agent.Failed || !strings.Contains(a.Reason, "the browser closed or crashed") || strings.ContainsAny(a.Reason, "\r\n") {
				t.Errorf("the killed attempt ended %s: %q; want failed, saying in one line that the browser went", a.Terminal, a.Reason)
			}
			if !strings.Contains(a.BrowserLog, "<launching>") || strings.Contains(a.Reason, "<launching>") || len(a.BrowserLog) > agent.MaxBrowserLog {
				t.Errorf("browser log %q: want Playwright's detail, bounded, apart from the reason", a.BrowserLog)
			}
			stored, err := st.Get(run.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got := stored.Attempts[0]; got.BrowserLog != a.BrowserLog || got.Reason != a.Reason {
				t.Errorf("stored browser log %q and reason %q differ from the attempt's", got.BrowserLog, got.Reason)
			}
			var file bytes.Buffer
			if err := runfile.Encode(&file, stored); err != nil {
				t.Fatal(err)
			}
			back, err := runfile.Decode(&file)
			if err != nil {
				t.Fatal(err)
			}
			if back.Run.Attempts[0].BrowserLog != a.BrowserLog {
				t.Errorf("the run file carries browser log %q", back.Run.Attempts[0].BrowserLog)
			}
			waitBrowserGone(t, 10*time.Second)
		})
	}
}

// waitBrowserGone fails t unless every browser process the test started has exited within d.
func waitBrowserGone(t *testing.T, d time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(d); ; time.Sleep(50 * time.Millisecond) {
		left := browserLeft(t)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("browser processes left %s after the run: %v", d, left)
		}
	}
}
