//go:build linux

package cli

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
)

// ptyTerminal is a terminal reading a pseudo-terminal's tty side, what it prints and the
// master side a test types on. The echo is drained.
func ptyTerminal(t *testing.T) (*terminal, *lockedBuffer, *os.File) {
	t.Helper()
	ptmx, tty := openTerminal(t)
	out := &lockedBuffer{}
	return &terminal{in: newLines(tty), out: out}, out, ptmx
}

// waitFor waits until out holds n copies of s; the test fails after a bound, never hangs.
func waitFor(t *testing.T, out *lockedBuffer, s string, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(out.String(), s) < n {
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s, %q is shown %d times, want %d:\n%s", s, strings.Count(out.String(), s), n, out)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// answer is one ask's result.
type answer struct {
	a   agent.ApprovalAnswer
	err error
}

// askAsync asks req on term and delivers the answer.
func askAsync(ctx context.Context, term *terminal, req agent.ApprovalRequest) <-chan answer {
	done := make(chan answer, 1)
	go func() {
		a, err := term.ask(ctx, "sends", req)
		done <- answer{a, err}
	}()
	return done
}

// await returns the answer, failing the test after a bound.
func await(t *testing.T, done <-chan answer) answer {
	t.Helper()
	select {
	case a := <-done:
		return a
	case <-time.After(10 * time.Second):
		t.Fatal("no answer after 10 s")
		return answer{}
	}
}

// typeAhead writes s on the terminal as its user would, and waits until the terminal has it in
// its input queue, so a question asked next really comes after it.
func typeAhead(t *testing.T, ptmx *os.File, s string) {
	t.Helper()
	if _, err := ptmx.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // the line discipline has it; no assertion depends on this
}

// TestTerminalCountsOnlyLinesTypedAfterTheQuestion types a "y" before each question, whole
// lines and a partial one, and answers no after the prompt: every answer is the no. Run it
// with -count=10: it is deterministic, since what is typed ahead sits in the terminal's
// input queue until the question flushes it.
func TestTerminalCountsOnlyLinesTypedAfterTheQuestion(t *testing.T) {
	term, out, ptmx := ptyTerminal(t)
	req := agent.ApprovalRequest{Action: "Send the message", Target: `button "Send"`, Recipient: "alice@example.com"}
	for i, ahead := range []string{"y\n", "yes\ny\n", "y"} {
		typeAhead(t, ptmx, ahead)
		done := askAsync(context.Background(), term, req)
		waitFor(t, out, "Approve? [y/n] ", i+1)
		if _, err := ptmx.Write([]byte("n\n")); err != nil {
			t.Fatal(err)
		}
		if got := await(t, done); got.a != agent.AnswerDeny || got.err != nil {
			t.Errorf("question %d with %q typed ahead: %s (%v), want the deny typed after it", i+1, ahead, got.a, got.err)
		}
	}
	// An answer that is neither is asked again, and the next line counts.
	done := askAsync(context.Background(), term, req)
	waitFor(t, out, "Approve? [y/n] ", 4)
	if _, err := ptmx.Write([]byte("maybe\n")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, out, "Answer y to approve or n to deny.", 1)
	if _, err := ptmx.Write([]byte("yes\n")); err != nil {
		t.Fatal(err)
	}
	if got := await(t, done); got.a != agent.AnswerApprove {
		t.Errorf("after an unclear answer, yes: %s (%v), want approve", got.a, got.err)
	}
}

// TestTerminalHoldsWhenNobodyAnswers: a question whose time runs out is held, the line typed
// after it answers nothing of the next question, and the end of input holds.
func TestTerminalHoldsWhenNobodyAnswers(t *testing.T) {
	term, out, ptmx := ptyTerminal(t)
	req := agent.ApprovalRequest{Action: "Send the message", Target: `button "Send"`}
	ctx, cancel := context.WithCancel(context.Background())
	done := askAsync(ctx, term, req)
	waitFor(t, out, "Approve? [y/n] ", 1)
	cancel()
	if got := await(t, done); got.a != agent.AnswerNone || got.err == nil || !strings.Contains(out.String(), "(no answer in time: held)") {
		t.Errorf("cancelled question: %s (%v), want held with the context's error\n%s", got.a, got.err, out)
	}
	typeAhead(t, ptmx, "y\n") // too late for the first question, too early for the second
	done = askAsync(context.Background(), term, req)
	waitFor(t, out, "Approve? [y/n] ", 2)
	if _, err := ptmx.Write([]byte("n\n")); err != nil {
		t.Fatal(err)
	}
	if got := await(t, done); got.a != agent.AnswerDeny {
		t.Errorf("second question: %s (%v), want the deny typed after it", got.a, got.err)
	}
	done = askAsync(context.Background(), term, req)
	waitFor(t, out, "Approve? [y/n] ", 3)
	if _, err := ptmx.Write([]byte{4}); err != nil { // Control-D: the end of input
		t.Fatal(err)
	}
	if got := await(t, done); got.a != agent.AnswerNone || got.err == nil || !strings.Contains(out.String(), "(input closed: held)") {
		t.Errorf("at the end of input: %s (%v), want held with an error\n%s", got.a, got.err, out)
	}
}

// TestApprovalCardEscapesThePage: every value on the card comes from the page or the task,
// and a newline, an escape sequence, a terminal retitle or a bidi override in any of them is
// shown escaped, never acted on: it cannot forge a line of the card nor repaint the screen.
func TestApprovalCardEscapesThePage(t *testing.T) {
	req := agent.ApprovalRequest{Step: 3, Action: "Send" + hostile, Target: `button "Send` + forgedRow + `"`,
		Recipient: "alice@example.com\n  amount:       0.00", Amount: "20.00\x1b[2K", Principal: "alice\u202eecila",
		Facts:      []agent.Fact{{ID: "price\n  control:", Value: hostile}},
		Data:       []agent.Field{{Role: "textbox", Name: "To\x1b]0;owned\x07", Value: "bob@evil.example\rallice"}},
		Permanence: "This cannot be undone." + hostile, URL: "http://lab/\x1b]8;;http://evil.example\x1b\\", Screenshot: "s.png\n",
		Again: "the recipient changed\n  recipient:    alice@example.com"}
	got := card("sends\x1b[31m", req)
	assertInert(t, "the approval card", got)
	if n := strings.Count(got, "\n"); n != 11 {
		t.Errorf("the card has %d lines, want 11 (one per row, none forged):\n%s", n, got)
	}
	for _, want := range []string{`\x1b[2J\x1b]0;owned\x07failed\rcompleted \u202edone`, `recipient:    alice@example.com\n  amount:       0.00`,
		`account:      alice\u202eecila`, `"bob@evil.example\rallice"`, `To\x1b]0;owned\x07:`, `void: the recipient changed\n  recipient:`} {
		if !strings.Contains(got, want) {
			t.Errorf("the card lacks %s:\n%s", want, got)
		}
	}
}
