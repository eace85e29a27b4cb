package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/creack/pty"
)

// lockedBuffer is a buffer one goroutine writes while another reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// outboxRow runs one outbox attempt with extra flags and stdin, and returns its JSON row and
// standard error.
func outboxRow(t *testing.T, env Env, attempt string, flags ...string) (map[string]any, string) {
	t.Helper()
	var out bytes.Buffer
	errOut, ok := env.Stderr.(*lockedBuffer)
	if !ok {
		errOut = &lockedBuffer{}
	}
	env.Stdout, env.Stderr, env.Assets = &out, errOut, fstest.MapFS{}
	args := append([]string{"run", "--lab", "outbox", "--attempt", attempt, "--json", "--no-video", "--no-screenshots",
		"--data-dir", t.TempDir()}, flags...)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if code := Execute(ctx, env, args); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("stdout is not one JSON row (%v): %s", err, out.String())
	}
	return rows[0], errOut.String()
}

// TestApprovalWithoutATerminal runs the approval attempt with nobody at a terminal: held by
// default, denied with --approve deny, and sent with the harness off.
func TestApprovalWithoutATerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	tests := []struct {
		name      string
		flags     []string
		terminal  string
		reasonHas string
	}{
		{"the default holds", nil, "rejected", "approval not given (the user held it)"},
		{"--approve deny", []string{"--approve", "deny"}, "rejected", "approval denied"},
		{"--harness off sends without asking", []string{"--harness", "off"}, "completed", "every completion condition holds"},
	}
	for _, tt := range tests {
		row, errOut := outboxRow(t, Env{}, "approval-denied", tt.flags...)
		if row["terminal"] != tt.terminal || !strings.Contains(row["reason"].(string), tt.reasonHas) {
			t.Errorf("%s: %v (%v), want %s with %q\n%s", tt.name, row["terminal"], row["reason"], tt.terminal, tt.reasonHas, errOut)
		}
	}
}

func TestApproveFlagsSayWhatIsWrong(t *testing.T) {
	tests := []struct {
		args []string
		err  string
	}{
		{[]string{"--approve", "ask"}, "needs a terminal"},
		{[]string{"--approve", "maybe"}, `--approve "maybe"`},
		{[]string{"--harness", "partly"}, `--harness "partly"`},
	}
	for _, tt := range tests {
		code, _, errOut := run(t, append([]string{"run", "--lab", "outbox", "--data-dir", t.TempDir()}, tt.args...)...)
		if code != 1 || !strings.Contains(errOut, tt.err) {
			t.Errorf("%v: exit %d, %q; want 1 and %q", tt.args, code, errOut, tt.err)
		}
	}
}

// TestApprovalPromptOnATerminal answers the prompt on a real pseudo-terminal: the user
// approves the send to Alice, the page then changes the recipient, the approval is void and
// the prompt asks again with the new recipient, and the user denies it. A "y" typed before
// the run, long before the first question, answers nothing: were it counted, the first
// question would be approved by it and the "y" typed after that question would approve the
// second, changed recipient. Every wait is bounded; run it with -count=10.
func TestApprovalPromptOnATerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	defer tty.Close()
	go func() { _, _ = io.Copy(io.Discard, ptmx) }()     // drain the echo
	if _, err := ptmx.Write([]byte("y\n")); err != nil { // typed ahead: must not count
		t.Fatal(err)
	}
	errOut := &lockedBuffer{}
	finished := make(chan struct{})
	typed := make(chan error, 1)
	go func() {
		for n, answer := range []string{"y\n", "n\n"} {
			for strings.Count(errOut.String(), "Approve? [y/n]") <= n {
				select {
				case <-finished:
					typed <- fmt.Errorf("the run ended after %d question(s), before question %d", n, n+1)
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
			if _, err := ptmx.Write([]byte(answer)); err != nil {
				typed <- err
				return
			}
		}
		typed <- nil
	}()
	row, stderr := outboxRow(t, Env{Stdin: tty, Stderr: errOut}, "recipient-changed-after-approval", "--approve", "ask")
	close(finished)
	select {
	case err := <-typed:
		if err != nil {
			t.Errorf("the user could not answer: %v\n%s", err, stderr)
		}
	case <-time.After(10 * time.Second):
		t.Error("the user's answers were never typed")
	}
	if row["terminal"] != "rejected" || !strings.Contains(row["reason"].(string), "approval denied") {
		t.Errorf("%v (%v), want rejected: approval denied\n%s", row["terminal"], row["reason"], stderr)
	}
	cards := strings.Split(stderr, "Approval needed:")
	if len(cards) != 3 || !strings.Contains(cards[1], "recipient:    alice@example.com") || !strings.Contains(cards[2], "recipient:    alicia@example.org") ||
		!strings.Contains(cards[2], `void: the recipient changed from "alice@example.com" to "alicia@example.org"`) {
		t.Errorf("want two cards, the second for the changed recipient:\n%s", stderr)
	}
}

// TestOutboxRunFileVerifies exports a run of the reconciled attempts and verifies it: the
// replay rebuilds the store, look-ups included, and agrees with every recorded verdict.
func TestOutboxRunFileVerifies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "run.json")
	code, _, errOut := run(t, "run", "--lab", "outbox", "--attempt", "lost-response-after-commit", "--attempt", "dropped-before-commit",
		"--json", "--no-video", "--no-screenshots", "--export", file, "--data-dir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"reconciliation"`) || !strings.Contains(string(data), `"contract": "irreversible"`) {
		t.Errorf("the run file carries no reconciliation or contract")
	}
	if code, out, errOut := run(t, "verify", file); code != 0 || !strings.Contains(out, "dropped-before-commit") {
		t.Errorf("verify: exit %d\n%s\n%s", code, out, errOut)
	}
}
