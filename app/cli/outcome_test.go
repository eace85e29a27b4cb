package cli

import (
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
)

func TestNotCompletedCountsAttemptsByState(t *testing.T) {
	at := func(ts ...agent.Terminal) []agent.Attempt {
		var as []agent.Attempt
		for _, t := range ts {
			as = append(as, agent.Attempt{Terminal: t})
		}
		return as
	}
	if err := notCompleted(at(agent.Completed, agent.Completed)); err != nil {
		t.Errorf("every attempt completed: %v, want nil", err)
	}
	err := notCompleted(at(agent.Ambiguous, agent.Completed, agent.Failed, agent.Ambiguous, ""))
	if want := "4 of 5 attempts did not complete (1 failed, 2 ambiguous, 1 unfinished)"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

// TestRunExitStatusSaysWhetherEveryAttemptCompleted runs the booking lab in real Chromium: an
// attempt that completes exits 0; beside one that fails, the run still prints both rows and
// writes its file, and exits 2 saying how many did not complete; a run that cannot be made
// exits 1.
func TestRunExitStatusSaysWhetherEveryAttemptCompleted(t *testing.T) {
	browsertest.Ready(t)
	dir := t.TempDir()
	code, out, errOut := run(t, "run", "--attempt", "saves-normally", "--no-video", "--no-screenshots", "--data-dir", dir)
	if code != 0 || strings.Contains(errOut, "Error") || !strings.Contains(out, "saves-normally") {
		t.Errorf("a completed attempt: exit %d\n%s\n%s", code, out, errOut)
	}
	file := dir + "/run.json"
	code, out, errOut = run(t, "run", "--attempt", "saves-normally", "--attempt", "wrong-room", "--no-video", "--no-screenshots",
		"--export", file, "--data-dir", dir)
	if code != statusIncomplete || !strings.HasSuffix(errOut, "Error: 1 of 2 attempts did not complete (1 failed)\n") ||
		!strings.Contains(out, "saves-normally") || !strings.Contains(out, "wrong-room") {
		t.Errorf("a failed attempt beside a completed one: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, _, errOut := run(t, "verify", file); code != 0 {
		t.Errorf("the run file of a run that exited %d does not verify: exit %d\n%s", statusIncomplete, code, errOut)
	}
	if code, _, errOut := run(t, "run", "--attempt", "no-such-attempt", "--data-dir", dir); code != 1 {
		t.Errorf("a run that could not be made: exit %d, want 1\n%s", code, errOut)
	}
}
