package runfile

import (
	"bytes"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// interruptedRun is the good run as the store keeps it once its process died during the
// second attempt: that attempt has no terminal state and no verdicts, only the steps and
// events recorded before the process stopped.
func interruptedRun(committed bool) agent.Run {
	run := goodRun()
	run.Status = agent.RunInterrupted
	a := &run.Attempts[1]
	a.Terminal, a.Reason, a.Verdicts = "", "interrupted: the process stopped before this attempt finished", agent.Verdicts{}
	if committed {
		a.Steps[1].Decision.Class = agent.ClassCommit
	}
	return run
}

// TestInterruptedAttemptsExportAndVerify checks that a run cut short by its process's death
// can be shared: the unfinished attempt is exported as cancelled (nothing committed) or
// ambiguous (a commit had acted, so its effect may have landed), saying why, and the file
// imports and verifies with its verdicts computed from the evidence.
func TestInterruptedAttemptsExportAndVerify(t *testing.T) {
	for _, tt := range []struct {
		committed bool
		want      agent.Terminal
	}{{false, agent.Cancelled}, {true, agent.Ambiguous}} {
		var buf bytes.Buffer
		if err := Encode(&buf, interruptedRun(tt.committed)); err != nil {
			t.Fatalf("committed %v: export refused: %v", tt.committed, err)
		}
		f, err := Decode(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("committed %v: the exported file does not read back: %v", tt.committed, err)
		}
		a := f.Run.Attempts[1]
		if a.Terminal != tt.want || !strings.Contains(a.Reason, "interrupted: the process stopped before this attempt finished") ||
			!strings.Contains(a.Reason, "exported as "+string(tt.want)) {
			t.Errorf("committed %v: exported as %q (%q), want %s saying it was interrupted", tt.committed, a.Terminal, a.Reason, tt.want)
		}
		res, err := Verify(findFake, f)
		if err != nil || len(res.Disagreements) != 0 {
			t.Fatalf("committed %v: verify: %v %+v", tt.committed, err, res.Disagreements)
		}
		if got := res.Run.Attempts[1]; got.Terminal != tt.want || len(got.Verdicts.Gate.Conditions) == 0 || got.Verdicts.Gate.Done {
			t.Errorf("committed %v: verified as %q with gate %+v, want %s judged from its evidence", tt.committed, got.Terminal, got.Verdicts.Gate, tt.want)
		}
	}
}

// TestRunningAttemptsAreNotExported checks that an attempt still under way is refused, not
// passed off as interrupted.
func TestRunningAttemptsAreNotExported(t *testing.T) {
	run := interruptedRun(false)
	run.Status = agent.RunRunning
	err := Encode(&bytes.Buffer{}, run)
	if err == nil || !strings.Contains(err.Error(), `attempts[1].terminal: unknown terminal state ""`) {
		t.Errorf("export of a running attempt: %v, want it refused as still running", err)
	}
}
