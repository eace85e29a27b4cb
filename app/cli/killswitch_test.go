//go:build linux

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
	"observatory/backend/browser/browsertest/proctest"
)

// TestKillSwitchStopsASendInFlight runs the outbox lab's sends-normally attempt as a process
// of its own, with the server taking 4 s to answer a send, and stops it the moment its Send
// step is done (the progress line's fourth mark: the send is in flight and the verify
// waits): once by `observatory stop` from another process, once by SIGTERM. Either way the
// attempt is cancelled with its send ambiguous until reconciled; the look-up, recorded as the
// last step, finds the operation nowhere, as the lab's own log agrees (the send was cancelled,
// nothing stored); the run is recorded cancelled, and its video was finished.
func TestKillSwitchStopsASendInFlight(t *testing.T) {
	browsertest.Ready(t)
	proctest.Adopt(t)
	const sendInFlight = "[1/1] sends-normally ...."
	for _, how := range []string{"observatory stop", "SIGTERM"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			p := start(t, "run", "--lab", "outbox", "--attempt", "sends-normally", "--latency", "4000", "--data-dir", dir)
			p.waitToSay(t, sendInFlight, time.Minute)
			if how == "SIGTERM" {
				p.signal(t, syscall.SIGTERM, stopGrace)
			} else {
				stop := start(t, "stop", "--data-dir", dir)
				select {
				case <-stop.exited:
				case <-time.After(stopGrace):
					t.Fatalf("observatory stop did not return:\n%s", stop.said())
				}
				if stop.exitCode() != 0 {
					t.Fatalf("observatory stop exited %d:\n%s", stop.exitCode(), stop.said())
				}
				select {
				case <-p.exited:
				case <-time.After(stopGrace):
					t.Fatalf("the run did not end after observatory stop:\n%s", p.said())
				}
			}
			status, attempts := storedRun(t, dir)
			if status != agent.RunCancelled || len(attempts) != 1 {
				t.Fatalf("stored run %s with %d attempts, want cancelled with one", status, len(attempts))
			}
			a := attempts[0]
			if a.Terminal != agent.Cancelled || !strings.Contains(a.Reason, "ambiguous until reconciled") {
				t.Fatalf("attempt %s (%s), want cancelled with its send reconciled", a.Terminal, a.Reason)
			}
			last := a.Steps[len(a.Steps)-1]
			rec := last.Reconciliation
			if last.Action.ID != "reconcile" || rec == nil || rec.Found != 0 || rec.Outcome != agent.ReconciledFailed || !strings.HasPrefix(rec.OpID, "op-") {
				t.Fatalf("last step %s, reconciliation %+v; want the look-up finding the operation nowhere", last.Action.ID, rec)
			}
			if a.Verdicts.Truth.Done || !slices.ContainsFunc(a.Events, func(e agent.Event) bool { return e.Type == "cancelled" && e.Data["op_id"] == rec.OpID }) {
				t.Errorf("ground truth %v, events %+v: the lab should have cancelled operation %s and stored nothing", a.Verdicts.Truth.Done, a.Events, rec.OpID)
			}
			videos, _ := filepath.Glob(filepath.Join(dir, "media", "*", a.Video))
			if a.Video == "" || len(videos) != 1 {
				t.Fatalf("the stopped attempt's video %q was not kept", a.Video)
			}
			decodesToTheEnd(t, videos[0])
			waitNoBrowserLeft(t, 10*time.Second)
		})
	}
}

// decodesToTheEnd fails t unless the file at path is a WebM that ffmpeg decodes to its end
// without a single error: a video cut off by a stop does not.
func decodesToTheEnd(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 1024 || string(b[:4]) != "\x1a\x45\xdf\xa3" {
		t.Fatalf("video %s is %d bytes without the WebM (EBML) signature", path, len(b))
	}
	ffmpeg, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Fatal("ffmpeg is needed to decode the video (scripts/setup.sh installs it)")
	}
	out, err := exec.Command(ffmpeg, "-v", "error", "-i", path, "-f", "null", "-").CombinedOutput()
	if err != nil || len(out) > 0 {
		t.Fatalf("ffmpeg could not decode %s to its end: %v\n%s", path, err, out)
	}
}
