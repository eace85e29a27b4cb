package cli

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
)

// approvalTask is the booking lab's task with safeguards that require approval.
var approvalTask = filepath.Join("..", "..", "backend", "outside", "testdata", "booking-approval.yaml")

// heldSaves are the approvals recorded for the agent's save, a POST to the booking lab's
// reservations held at the network (the page's events, POSTs too, are held as well).
func heldSaves(t *testing.T, file string) []agent.Approval {
	t.Helper()
	var out []agent.Approval
	for _, s := range attemptSteps(t, file) {
		for _, a := range s.Approvals {
			if strings.HasPrefix(a.Request.Action, "POST ") && strings.HasSuffix(a.Request.URL, "/api/reservations") {
				out = append(out, a)
			}
		}
	}
	return out
}

// TestOutsideAgentsSaveHeldThenDenied: under safeguards that require approval, the Puppeteer
// agent's save is held at the network and, with --approve deny, refused: nothing is saved,
// the attempt is not done, the refusal and what it would have sent are recorded on a step,
// nothing of the agent is left running, and the run file verifies.
func TestOutsideAgentsSaveHeldThenDenied(t *testing.T) {
	needAgents(t)
	data := t.TempDir()
	rows, file, errOut := runAgentOn(t, Env{}, approvalTask, data, "puppeteer-book.js", "", []string{"saves-normally"}, "--approve", "deny")
	// The browser's guards read TLS with an authority made for the run: never written down.
	_ = filepath.WalkDir(data, func(path string, d fs.DirEntry, err error) error {
		if b, rerr := os.ReadFile(path); err == nil && d.Type().IsRegular() && rerr == nil && bytes.Contains(b, []byte("-----BEGIN ")) {
			t.Errorf("%s holds a PEM block", path)
		}
		return nil
	})
	if r := rows[0]; r.Gate || r.Terminal == agent.Completed {
		t.Errorf("gate %v, %s (%s): want not done, nothing saved\n%s", r.Gate, r.Terminal, r.Reason, errOut)
	}
	held := heldSaves(t, file)
	if len(held) == 0 {
		t.Fatalf("no step records the held save: %+v", observedSteps(t, file))
	}
	a := held[0]
	if a.Answer != agent.AnswerDeny || !strings.Contains(a.Request.Target, "127.0.0.1") ||
		!slices.ContainsFunc(a.Request.Data, func(f agent.Field) bool { return strings.Contains(f.Value, "Spectral scan") }) {
		t.Errorf("the held save is recorded as %+v", a)
	}
	if code, _, errOut := run(t, "verify", file); code != 0 {
		t.Errorf("the run file does not verify: %s", errOut)
	}
}

// TestOutsideAgentsSaveHeldThenApproved: the user approves the held save on a terminal (a
// pseudo-terminal the test types into once the question is shown), and it goes through.
func TestOutsideAgentsSaveHeldThenApproved(t *testing.T) {
	needAgents(t)
	ptmx, tty := openTerminal(t)
	errOut := &lockedBuffer{}
	finished := make(chan struct{})
	typed := make(chan error, 1)
	go func() { // the page's other requests (its events) are POSTs too: each is approved
		for n := 0; ; n++ {
			for strings.Count(errOut.String(), "Approve? [y/n]") <= n {
				select {
				case <-finished:
					if n == 0 {
						typed <- fmt.Errorf("the run ended without asking")
					}
					typed <- nil
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
			if _, err := ptmx.Write([]byte("y\n")); err != nil {
				typed <- err
				return
			}
		}
	}()
	rows, file, _ := runAgentOn(t, Env{Stdin: tty, Stderr: errOut}, approvalTask, t.TempDir(), "puppeteer-book.js", "", []string{"saves-normally"}, "--approve", "ask")
	close(finished)
	if err := <-typed; err != nil {
		t.Fatalf("the user could not answer: %v\n%s", err, errOut.String())
	}
	if r := rows[0]; !r.Gate || r.Terminal != agent.Completed {
		t.Errorf("gate %v, %s (%s): want the approved save done\n%s", r.Gate, r.Terminal, r.Reason, errOut.String())
	}
	if held := heldSaves(t, file); len(held) == 0 || slices.ContainsFunc(held, func(a agent.Approval) bool { return a.Answer != agent.AnswerApprove }) {
		t.Errorf("the approved save is recorded as %+v", held)
	}
	if !strings.Contains(errOut.String(), "POST ") {
		t.Errorf("the question does not say what is sent:\n%s", errOut.String())
	}
	if code, _, out := run(t, "verify", file); code != 0 {
		t.Errorf("the run file does not verify: %s", out)
	}
}
