package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"observatory/backend/agent"
	"observatory/backend/runfile"
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
	return runRow(t, env, append([]string{"run", "--lab", "outbox", "--attempt", attempt}, flags...)...)
}

// runRow runs args, a run of one attempt, with stdin, and returns its JSON row and standard
// error.
func runRow(t *testing.T, env Env, args ...string) (map[string]any, string) {
	t.Helper()
	var out bytes.Buffer
	errOut, ok := env.Stderr.(*lockedBuffer)
	if !ok {
		errOut = &lockedBuffer{}
	}
	env.Stdout, env.Stderr, env.Assets = &out, errOut, fstest.MapFS{}
	args = append(args, "--json", "--no-video", "--no-screenshots", "--data-dir", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if code := Execute(ctx, env, args); !ranThrough(code, errOut.String()) {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("stdout is not one JSON row (%v): %s", err, out.String())
	}
	return rows[0], errOut.String()
}

// TestApprovalWithoutATerminal runs the approval attempt with nobody at a terminal: held by
// default and with --approve hold, denied with --approve deny, and sent with the harness off.
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
		{"the default holds", nil, "rejected", "approval held: nobody to ask (no terminal, no window open)"},
		{"--approve hold", []string{"--approve", "hold"}, "rejected", "approval held: --approve hold holds every request"},
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
	ptmx, tty := openTerminal(t)
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

// TestApproveHoldOnATerminal: --approve hold holds even with a terminal on standard input,
// where the default would ask: no question is printed, and a "y" typed answers nothing.
func TestApproveHoldOnATerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	ptmx, tty := openTerminal(t)
	if _, err := ptmx.Write([]byte("y\n")); err != nil {
		t.Fatal(err)
	}
	row, stderr := outboxRow(t, Env{Stdin: tty}, "approval-denied", "--approve", "hold")
	if row["terminal"] != "rejected" || !strings.Contains(row["reason"].(string), "approval held: --approve hold holds every request") ||
		strings.Contains(stderr, "Approve? [y/n]") {
		t.Errorf("%v (%v), want held without a question\n%s", row["terminal"], row["reason"], stderr)
	}
}

// TestOutboxRunFileVerifies exports a run of the reconciled attempts and reads the records in
// the file: the send's contract, each reconciliation's query, answer, count and outcome, the
// retry that followed with the same operation id; verify replays it and agrees with every
// recorded verdict and record. A copy whose look-up count is tampered with is flagged.
func TestOutboxRunFileVerifies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "run.json")
	code, _, errOut := run(t, "run", "--lab", "outbox", "--attempt", "lost-response-after-commit", "--attempt", "dropped-before-commit",
		"--json", "--no-video", "--no-screenshots", "--export", file, "--data-dir", dir)
	if !ranThrough(code, errOut) {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	f, err := runfile.Decode(bytes.NewReader(data))
	if err != nil || len(f.Run.Attempts) != 2 {
		t.Fatalf("the run file: %v, want two attempts", err)
	}
	wants := []struct {
		outcome string
		found   int
		retried bool
	}{{agent.ReconciledCompleted, 1, false}, {agent.ReconciledRetry, 0, true}}
	for i, a := range f.Run.Attempts {
		want := wants[i]
		send := a.Steps[3]
		if send.Action.ID != "send" || send.Decision.Contract != agent.ContractIrreversible || send.Decision.Class != agent.ClassCommit ||
			!strings.Contains(send.Decision.Why, `"Send"`) {
			t.Errorf("%s: the send is %s, %s (%s), want irreversible, commit, for its name", a.Slug, send.Decision.Contract, send.Decision.Class, send.Decision.Why)
		}
		var rec *agent.Reconciliation
		at := 0
		for j, s := range a.Steps {
			if s.Reconciliation != nil {
				rec, at = s.Reconciliation, j
			}
		}
		if rec == nil {
			t.Fatalf("%s: no reconciliation recorded", a.Slug)
		}
		var answer struct {
			OpID  string `json:"op_id"`
			Found int    `json:"found"`
		}
		if !strings.HasPrefix(rec.OpID, "op-") || rec.Query != "GET /api/messages?op_id="+rec.OpID || rec.Found != want.found ||
			rec.Outcome != want.outcome || json.Unmarshal([]byte(rec.Answer), &answer) != nil || answer.OpID != rec.OpID || answer.Found != want.found {
			t.Errorf("%s: reconciliation %+v, want the look-up of its operation found %d, %s", a.Slug, rec, want.found, want.outcome)
		}
		retried := at+1 < len(a.Steps) && a.Steps[at+1].Action.ID == "retry"
		if retried != want.retried || (retried && (rec.Retry == nil || a.Steps[at+1].Action.Target != rec.Retry.Target)) {
			t.Errorf("%s: the step after the reconciliation retried %v, want %v", a.Slug, retried, want.retried)
		}
	}
	if code, out, errOut := run(t, "verify", file); code != 0 || !strings.Contains(out, "dropped-before-commit") ||
		!strings.Contains(errOut, "every recorded verdict agrees with the replay") {
		t.Errorf("verify: exit %d\n%s\n%s", code, out, errOut)
	}
	tampered := filepath.Join(dir, "tampered.json")
	lost := f.Run.Attempts[0]
	for i := range lost.Steps {
		if r := lost.Steps[i].Reconciliation; r != nil {
			r.Found, r.Outcome = 2, agent.ReconciledDuplicate
		}
	}
	var buf bytes.Buffer
	if err := runfile.EncodeFile(&buf, f); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tampered, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(t, "verify", tampered); code == 0 || !strings.Contains(errOut, "lost-response-after-commit: reconciliation (step 5) recorded found operation") ||
		!strings.Contains(errOut, "recomputed the store answered 1 (the app's log)") {
		t.Errorf("verify of a tampered look-up: exit %d\n%s", code, errOut)
	}
}
