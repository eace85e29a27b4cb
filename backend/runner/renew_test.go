//go:build linux

package runner_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
	"observatory/backend/browser/browsertest/proctest"
	"observatory/backend/labs/booking"
	"observatory/backend/runner"
)

// unnoticing is a browser whose death the runner cannot learn before it uses it: it hides
// the browser's agent.Lifeline, as a death still on its way does.
type unnoticing struct{ agent.Browser }

// TestABrowserDeadBetweenAttemptsIsReplaced kills Chromium's process group as an attempt
// finishes, before the runner can know: the next attempt finds the browser dead as it opens
// its page. Nothing of that attempt has happened yet, so the runner starts another browser
// and the attempt ends as it always does, not failed by a death that was not its own.
func TestABrowserDeadBetweenAttemptsIsReplaced(t *testing.T) {
	browsertest.Ready(t)
	proctest.Adopt(t)
	never := attemptLog{anchor: 99, victim: "Chromium"} // the test kills, not the schedule
	c := &chaos{t: t, schedule: []attemptLog{never, never}}
	var log lockedBuffer
	launch, launches := c.launch(&log), 0
	killed := false
	r := &runner.Runner{Suite: booking.New(),
		Launch: func(ctx context.Context) (agent.Browser, error) {
			launches++
			b, err := launch(ctx)
			if err != nil {
				return nil, err
			}
			return unnoticing{b}, nil
		},
		Emit: func(p runner.Progress) {
			c.emit(p)
			if p.Kind == runner.AttemptFinished && !killed {
				killed = true
				c.mu.Lock()
				pgid := c.chromiumGroup()
				c.mu.Unlock()
				killAndWait(t, pgid)
			}
		}}
	run, err := r.Run(context.Background(), "renew", runner.Options{Attempts: []string{"saves-normally", "wrong-room"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range run.Attempts {
		t.Logf("%s: %s (%s)", a.Slug, a.Terminal, a.Reason)
		if a.Terminal != usual[a.Slug] {
			t.Errorf("%s ended %s (%s), want %s as it always does", a.Slug, a.Terminal, a.Reason, usual[a.Slug])
		}
	}
	if launches != 2 {
		t.Errorf("%d browsers launched, want 2: the first, and one in place of the one killed", launches)
	}
	c.waitAllExited(10 * time.Second)
}

// killAndWait kills process group pgid with SIGKILL and waits until its leader has exited.
func killAndWait(t *testing.T, pgid int) {
	t.Helper()
	if pgid == 0 {
		t.Fatal("no Chromium to kill")
	}
	leader, err := proctest.Read(pgid)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); proctest.Running(leader); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("Chromium %v still runs 10s after SIGKILL", leader)
		}
	}
}
