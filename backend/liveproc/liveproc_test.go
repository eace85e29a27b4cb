package liveproc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/runner"
)

// window is a Follower that records what it is shown, and answers each ask with answer (as
// a person's click would, apart from the watcher's goroutine).
type window struct {
	answer agent.ApprovalAnswer

	mu      sync.Mutex
	kinds   []string
	asked   []Ask
	replies []error // what came of each answer sent
	closed  []Ask   // each ask as it closed
	ended   []string
}

func (w *window) Progress(run Info, p runner.Progress) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.kinds = append(w.kinds, run.RunID+":"+string(p.Kind)+":"+p.Slug)
}

func (w *window) Ask(run Info, a Ask, reply func(agent.ApprovalAnswer) error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.asked = append(w.asked, a)
	if w.answer != "" {
		go func() {
			err := reply(w.answer)
			w.mu.Lock()
			defer w.mu.Unlock()
			w.replies = append(w.replies, err)
		}()
	}
}

func (w *window) Closed(run Info, a Ask) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = append(w.closed, a)
}

func (w *window) Ended(run Info) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ended = append(w.ended, run.RunID)
}

// count is how many of what w recorded, under its lock.
func (w *window) count(of func(*window) int) func() bool {
	return func() bool { w.mu.Lock(); defer w.mu.Unlock(); return of(w) > 0 }
}

// always is a window with a person before it.
func always() bool { return true }

// until waits for cond, failing the test after ten seconds.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited ten seconds for %s", what)
		}
	}
}

func (w *window) seen() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.kinds, " ")
}

// TestAWindowFollowsARunAndAnswersItsAsk: a window that starts watching after the run began
// is sent its progress so far and then as it comes, each event once; an approval ask reaches
// it and its answer is the run's, recorded as the window's (its kind, the pid the system
// names); when the offer is withdrawn the window hears the run ended
// and the discovery files are gone.
func TestAWindowFollowsARunAndAnswersItsAsk(t *testing.T) {
	data := t.TempDir()
	h, err := Offer(data, Info{RunID: "r1", Command: "observatory mcp", Task: "book"})
	if err != nil {
		t.Fatal(err)
	}
	h.Progress(runner.Progress{RunID: "r1", Kind: runner.RunStarted})
	h.Progress(runner.Progress{RunID: "r1", Kind: runner.AttemptStarted, Slug: "a"})
	w := &window{answer: agent.AnswerApprove}
	watcher := Watch(data, "desktop", w, always)
	defer watcher.Close()
	until(t, "the window to connect", h.Watched)
	h.Progress(runner.Progress{RunID: "r1", Kind: runner.StepDone, Slug: "a"})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got, err := h.Approver("a", nil).(agent.Witness).Answered(ctx, agent.ApprovalRequest{Action: "click Save", Step: 1})
	if got.Answer != agent.AnswerApprove || err != nil {
		t.Fatalf("the window's answer reached the run as %q, %v", got.Answer, err)
	}
	if want := fmt.Sprintf("window (desktop, pid %d)", os.Getpid()); got.By != want {
		t.Errorf("the answer is recorded as given by %q, want %q", got.By, want)
	}
	until(t, "the window to hear the ask closed", w.count(func(w *window) int { return len(w.closed) }))
	w.mu.Lock()
	if len(w.asked) != 1 || w.asked[0].Slug != "a" || w.asked[0].Request.Action != "click Save" {
		t.Errorf("the window was asked %+v", w.asked)
	}
	if len(w.replies) != 1 || w.replies[0] != nil || w.closed[0].Answer != agent.AnswerApprove {
		t.Errorf("the answer sent came to %v, the ask closed as %+v", w.replies, w.closed)
	}
	w.mu.Unlock()
	h.Progress(runner.Progress{RunID: "r1", Kind: runner.RunFinished})
	until(t, "the run's end", func() bool { return strings.HasSuffix(w.seen(), "run-finished:") })
	if got, want := w.seen(), "r1:run-started: r1:attempt-started:a r1:step:a r1:run-finished:"; got != want {
		t.Errorf("the window was shown %q, want %q", got, want)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	until(t, "the window to hear the offer withdrawn", func() bool { w.mu.Lock(); defer w.mu.Unlock(); return len(w.ended) == 1 })
	if left, _ := filepath.Glob(filepath.Join(data, folder, "*")); len(left) != 0 {
		t.Errorf("the offer left %v", left)
	}
}

// TestAnAskClosedInTheProcessClosesInTheWindow: an ask the process stops waiting for (its
// time limit) closes in the window unanswered.
func TestAnAskClosedInTheProcessClosesInTheWindow(t *testing.T) {
	data := t.TempDir()
	h, err := Offer(data, Info{RunID: "r2", Command: "observatory run"})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	w := &window{}
	watcher := Watch(data, "desktop", w, always)
	defer watcher.Close()
	until(t, "the window to connect", h.Watched)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	ans, err := h.Approver("a", nil).Approve(ctx, agent.ApprovalRequest{Action: "click Send"})
	if ans != agent.AnswerNone || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("an ask nobody answered ended %q, %v", ans, err)
	}
	until(t, "the window's ask to close", func() bool { w.mu.Lock(); defer w.mu.Unlock(); return len(w.closed) == 1 })
	if w.closed[0].Answer != agent.AnswerNone {
		t.Errorf("the ask closed as %q, want none", w.closed[0].Answer)
	}
}

// TestADeadProcessesOfferIsSwept: a process that dies (its lock released, its listener gone,
// its discovery file left) ends the window's ask and run, and the window sweeps the file.
func TestADeadProcessesOfferIsSwept(t *testing.T) {
	data := t.TempDir()
	h, err := Offer(data, Info{RunID: "r3", Command: "observatory mcp"})
	if err != nil {
		t.Fatal(err)
	}
	w := &window{}
	watcher := Watch(data, "desktop", w, always)
	defer watcher.Close()
	until(t, "the window to connect", h.Watched)
	go h.Approver("a", nil).Approve(context.Background(), agent.ApprovalRequest{Action: "click Send"})
	until(t, "the ask to reach the window", func() bool { w.mu.Lock(); defer w.mu.Unlock(); return len(w.asked) == 1 })
	// what the operating system does when the process is killed
	h.srv.Close()
	h.lock.Close()
	until(t, "the window's ask to close", func() bool { w.mu.Lock(); defer w.mu.Unlock(); return len(w.closed) == 1 })
	until(t, "the window to hear the run ended", func() bool { w.mu.Lock(); defer w.mu.Unlock(); return len(w.ended) == 1 })
	until(t, "the discovery file to be swept", func() bool {
		_, err := os.Stat(filepath.Join(data, folder, "r3"+infoExt))
		return errors.Is(err, os.ErrNotExist)
	})
}

// TestOnlyTheOwnersWindowsMayConnect: a request without the token, one a web page sends
// (Origin) and one under another Host name are refused.
func TestOnlyTheOwnersWindowsMayConnect(t *testing.T) {
	data := t.TempDir()
	h, err := Offer(data, Info{RunID: "r4", Command: "observatory run"})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	info, err := readInfo(filepath.Join(data, folder, "r4"+infoExt))
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(data, folder, "r4"+infoExt)); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the discovery file is %v (%v), want 0600", st.Mode(), err)
	}
	for name, c := range map[string]struct {
		header map[string]string
		host   string
		status int
	}{
		"no token":     {nil, "", http.StatusUnauthorized},
		"a wrong one":  {map[string]string{"Authorization": "Bearer nope"}, "", http.StatusUnauthorized},
		"a web page":   {map[string]string{"Authorization": "Bearer " + info.Token, "Origin": "http://evil.example"}, "", http.StatusForbidden},
		"fetch":        {map[string]string{"Authorization": "Bearer " + info.Token, "Sec-Fetch-Site": "cross-site"}, "", http.StatusForbidden},
		"another name": {map[string]string{"Authorization": "Bearer " + info.Token}, "rebound.example:80", http.StatusMisdirectedRequest},
	} {
		client, base := clientFor(info.Addr)
		req, _ := http.NewRequest(http.MethodPost, base+"/answer", strings.NewReader(`{"id":"1","answer":"approve"}`))
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		if c.host != "" {
			req.Host = c.host
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s: status %d, want %d", name, resp.StatusCode, c.status)
		}
	}
}

// TestAnOfferSweepsWhatDeadProcessesLeft: a discovery file whose process is gone (no lock
// held) is removed by the next run offered, with no window open.
func TestAnOfferSweepsWhatDeadProcessesLeft(t *testing.T) {
	data := t.TempDir()
	d := filepath.Join(data, folder)
	if err := os.MkdirAll(d, 0o700); err != nil {
		t.Fatal(err)
	}
	left := filepath.Join(d, "dead"+infoExt)
	if err := os.WriteFile(left, []byte(`{"run_id":"dead","addr":"127.0.0.1:1","token":"t"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	h, err := Offer(data, Info{RunID: "r5", Command: "observatory run"})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if _, err := os.Stat(left); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dead process's discovery file is still there: %v", err)
	}
	if _, err := readInfo(filepath.Join(d, "r5"+infoExt)); err != nil {
		t.Errorf("the new offer's file: %v", err)
	}
}

// TestAFileOffLoopbackIsNeverFollowed: a discovery file naming an address off this
// machine's loopback is refused.
func TestAFileOffLoopbackIsNeverFollowed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x"+infoExt)
	if err := os.WriteFile(path, []byte(`{"run_id":"x","addr":"203.0.113.5:80","token":"t"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := readInfo(path); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("a file off loopback was read: %v", err)
	}
}

// TestTwoWindowsTheFirstAnswerCounts: with the desktop and serve both open, each is asked and
// both answer at once: one answer is taken, the other is refused as not taken, and both
// windows' asks close with the answer the run took.
func TestTwoWindowsTheFirstAnswerCounts(t *testing.T) {
	for round := range 5 {
		data := t.TempDir()
		h, err := Offer(data, Info{RunID: "r6", Command: "observatory mcp"})
		if err != nil {
			t.Fatal(err)
		}
		approving, denying := &window{answer: agent.AnswerApprove}, &window{answer: agent.AnswerDeny}
		for _, w := range []*window{approving, denying} {
			watcher := Watch(data, "desktop", w, always)
			defer watcher.Close()
		}
		until(t, "both windows to connect", func() bool { return h.windows.Len() == 2 })
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		took, err := h.Approver("a", nil).Approve(ctx, agent.ApprovalRequest{Action: "click Send"})
		cancel()
		if err != nil || (took != agent.AnswerApprove && took != agent.AnswerDeny) {
			t.Fatalf("round %d: the run took %q, %v", round, took, err)
		}
		checkRace(t, took, map[agent.ApprovalAnswer]*window{agent.AnswerApprove: approving, agent.AnswerDeny: denying})
		h.Close()
	}
}

// TestTheTerminalAndAWindowRace: a question put to the terminal beside the windows, both
// answering at once, takes one answer; the window is told whether its own was taken and its
// ask closes with what the run took.
func TestTheTerminalAndAWindowRace(t *testing.T) {
	data := t.TempDir()
	h, err := Offer(data, Info{RunID: "r7", Command: "observatory run"})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	w := &window{answer: agent.AnswerApprove}
	watcher := Watch(data, "desktop", w, always)
	defer watcher.Close()
	until(t, "the window to connect", h.Watched)
	for round := range 5 {
		terminal := make(chan error, 1)
		also := approverFunc(func(ctx context.Context, _ agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
			if round%2 == 1 { // the user types n just as the window sends its answer
				return agent.AnswerDeny, nil
			}
			<-ctx.Done()
			terminal <- context.Cause(ctx)
			return agent.AnswerNone, ctx.Err()
		})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		took, err := h.Approver("a", also).Approve(ctx, agent.ApprovalRequest{Action: "click Send"})
		cancel()
		if err != nil || (took != agent.AnswerApprove && took != agent.AnswerDeny) {
			t.Fatalf("round %d: the run took %q, %v", round, took, err)
		}
		if round%2 == 0 && took != agent.AnswerApprove {
			t.Fatalf("round %d: the terminal said nothing, yet the run took %q", round, took)
		}
		if round%2 == 0 {
			if cause := <-terminal; !errors.Is(cause, ErrAnsweredElsewhere) {
				t.Errorf("round %d: the terminal's question closed with %v", round, cause)
			}
		}
		until(t, "the window to hear the ask closed", func() bool {
			w.mu.Lock()
			defer w.mu.Unlock()
			return len(w.closed) == round+1 && len(w.replies) == round+1
		})
		w.mu.Lock()
		reply, closed := w.replies[round], w.closed[round]
		w.mu.Unlock()
		if closed.Answer != took || (reply == nil) != (took == agent.AnswerApprove) || (reply != nil && !errors.Is(reply, ErrNotTaken)) {
			t.Errorf("round %d: the run took %q; the window's ask closed as %q, its answer sent came to %v", round, took, closed.Answer, reply)
		}
	}
}

// checkRace checks that of the windows by the answer each sent, the one whose answer the run
// took was told it was taken, any other that it was not, and each ask closed with took.
func checkRace(t *testing.T, took agent.ApprovalAnswer, windows map[agent.ApprovalAnswer]*window) {
	t.Helper()
	for ans, w := range windows {
		until(t, "each window to hear its answer's fate and the ask closed", func() bool {
			w.mu.Lock()
			defer w.mu.Unlock()
			return len(w.replies) == 1 && len(w.closed) == 1
		})
		w.mu.Lock()
		reply, closed := w.replies[0], w.closed[0]
		w.mu.Unlock()
		if closed.Answer != took {
			t.Errorf("the window that sent %q saw the ask close as %q; the run took %q", ans, closed.Answer, took)
		}
		if taken := ans == took; taken != (reply == nil) || (!taken && !errors.Is(reply, ErrNotTaken)) {
			t.Errorf("the window that sent %q was told %v; the run took %q", ans, reply, took)
		}
	}
}

// approverFunc is a function as an agent.Approver.
type approverFunc func(context.Context, agent.ApprovalRequest) (agent.ApprovalAnswer, error)

func (f approverFunc) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	return f(ctx, req)
}
