package app

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/liveproc"
)

// audience is serve's emitter as the services see it: approval events kept, and a page open
// or not.
type audience struct {
	open atomic.Bool

	mu     sync.Mutex
	closed []ApprovalAsk
}

func (a *audience) Emit(name string, data any) {
	if ask, ok := data.(ApprovalAsk); ok && name == EventApproval && !ask.Open {
		a.mu.Lock()
		a.closed = append(a.closed, ask)
		a.mu.Unlock()
	}
}

func (a *audience) Watching() bool { return a.open.Load() }

// waitFor waits for cond, failing the test after ten seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited ten seconds for %s", what)
		}
	}
}

// TestOnlyAWindowWithSomeoneFollowsOtherProcessesRuns: services that are not a window (runs
// --prune, any other command) never follow another process's run; a window follows it only
// while someone is before it: serve with a page open, the desktop once its window is up.
func TestOnlyAWindowWithSomeoneFollowsOtherProcessesRuns(t *testing.T) {
	data := t.TempDir()
	h, err := liveproc.Offer(data, liveproc.Info{RunID: "x1", Command: "observatory run"})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	notWatchedFor := func(what string) {
		t.Helper()
		time.Sleep(4 * liveproc.Poll)
		if h.Watched() {
			t.Fatalf("%s counts as watching", what)
		}
	}

	cli := New(Options{DataDir: data, Transport: "cli"})
	cli.SetEmitter(emitterFunc(func(string, any) {}))
	notWatchedFor("a command that is no window")
	cli.Shutdown()

	serve := New(Options{DataDir: data, Transport: "http", FollowOthers: true})
	defer serve.Shutdown()
	notWatchedFor("a window with no transport yet")
	page := &audience{}
	serve.SetEmitter(page)
	notWatchedFor("serve with no page open")
	page.open.Store(true)
	waitFor(t, "serve with a page open to follow", h.Watched)
	page.open.Store(false)
	waitFor(t, "serve whose last page closed to stop following", func() bool { return !h.Watched() })

	desktop := New(Options{DataDir: data, Transport: "desktop", FollowOthers: true})
	defer desktop.Shutdown()
	desktop.SetEmitter(emitterFunc(func(string, any) {}))
	waitFor(t, "the desktop to follow", h.Watched)
}

// TestAWindowsAnswerRacesTheTerminal: another process's request, put to the window and to
// the process's terminal, both answering at once: Approvals.Answer says whether the process
// took the window's answer (an error wrapping liveproc.ErrNotTaken when not), and the
// window's request closes with what the run took, whichever it was.
func TestAWindowsAnswerRacesTheTerminal(t *testing.T) {
	data := t.TempDir()
	h, err := liveproc.Offer(data, liveproc.Info{RunID: "x2", Command: "observatory run"})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	s := New(Options{DataDir: data, Transport: "http", FollowOthers: true})
	defer s.Shutdown()
	page := &audience{}
	page.open.Store(true)
	s.SetEmitter(page)
	waitFor(t, "the window to follow", h.Watched)

	for round := range 6 {
		answer := make(chan error, 1)
		terminal := approverFunc(func(ctx context.Context, _ agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
			// the user types n on the terminal as the window's user clicks approve
			var pending []ApprovalAsk
			waitFor(t, "the request to reach the window", func() bool { pending = s.Approvals.Pending(); return len(pending) == 1 })
			go func() { answer <- s.Approvals.Answer(pending[0].ID, string(agent.AnswerApprove)) }()
			if round%2 == 1 { // the window's answer comes back before the terminal's
				err := <-answer
				answer <- err
			}
			return agent.AnswerDeny, nil
		})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		took, err := h.Approver("a", terminal).Approve(ctx, agent.ApprovalRequest{Action: "click Send"})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		windowErr := <-answer
		// not taken: refused by the process, or the request had closed in the window already
		refused := windowErr != nil && (errors.Is(windowErr, liveproc.ErrNotTaken) || strings.Contains(windowErr.Error(), "not waiting"))
		if taken := windowErr == nil; taken != (took == agent.AnswerApprove) || (!taken && !refused) {
			t.Errorf("round %d: the run took %q, the window was told %v", round, took, windowErr)
		}
		waitFor(t, "the window's request to close", func() bool { page.mu.Lock(); defer page.mu.Unlock(); return len(page.closed) == round+1 })
		if got := page.closed[round].Answer; got != took {
			t.Errorf("round %d: the run took %q, the window's request closed as %q", round, took, got)
		}
	}
}

// approverFunc is a function as an agent.Approver.
type approverFunc func(context.Context, agent.ApprovalRequest) (agent.ApprovalAnswer, error)

func (f approverFunc) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	return f(ctx, req)
}
