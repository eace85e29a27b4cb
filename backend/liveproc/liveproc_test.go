package liveproc

import (
	"context"
	"errors"
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

// window is a Follower that records what it is shown and answers asks with answer.
type window struct {
	answer agent.ApprovalAnswer

	mu     sync.Mutex
	kinds  []string
	asked  []Ask
	closed []error // why each ask's wait ended
	ended  []string
}

func (w *window) Progress(run Info, p runner.Progress) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.kinds = append(w.kinds, run.RunID+":"+string(p.Kind)+":"+p.Slug)
}

func (w *window) Ask(ctx context.Context, run Info, a Ask) (agent.ApprovalAnswer, error) {
	w.mu.Lock()
	w.asked = append(w.asked, a)
	w.mu.Unlock()
	if w.answer != "" {
		return w.answer, nil
	}
	<-ctx.Done()
	w.mu.Lock()
	w.closed = append(w.closed, ctx.Err())
	w.mu.Unlock()
	return agent.AnswerNone, ctx.Err()
}

func (w *window) Ended(run Info) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ended = append(w.ended, run.RunID)
}

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
// it and its answer is the run's; when the offer is withdrawn the window hears the run ended
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
	watcher := Watch(data, w)
	defer watcher.Close()
	until(t, "the window to connect", h.Watched)
	h.Progress(runner.Progress{RunID: "r1", Kind: runner.StepDone, Slug: "a"})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ans, err := h.Approver("a").Approve(ctx, agent.ApprovalRequest{Action: "click Save", Step: 1})
	if ans != agent.AnswerApprove || err != nil {
		t.Fatalf("the window's answer reached the run as %q, %v", ans, err)
	}
	if len(w.asked) != 1 || w.asked[0].Slug != "a" || w.asked[0].Request.Action != "click Save" {
		t.Errorf("the window was asked %+v", w.asked)
	}
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
	watcher := Watch(data, w)
	defer watcher.Close()
	until(t, "the window to connect", h.Watched)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	ans, err := h.Approver("a").Approve(ctx, agent.ApprovalRequest{Action: "click Send"})
	if ans != agent.AnswerNone || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("an ask nobody answered ended %q, %v", ans, err)
	}
	until(t, "the window's ask to close", func() bool { w.mu.Lock(); defer w.mu.Unlock(); return len(w.closed) == 1 })
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
	watcher := Watch(data, w)
	defer watcher.Close()
	until(t, "the window to connect", h.Watched)
	go h.Approver("a").Approve(context.Background(), agent.ApprovalRequest{Action: "click Send"})
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
		req, _ := http.NewRequest(http.MethodPost, "http://"+info.Addr+"/answer", strings.NewReader(`{"id":"1","answer":"approve"}`))
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		if c.host != "" {
			req.Host = c.host
		}
		resp, err := http.DefaultClient.Do(req)
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

// TestTwoWindowsTheFirstAnswerCounts: with the desktop and serve both open, each is asked;
// the first answer is the run's and the other window's question closes.
func TestTwoWindowsTheFirstAnswerCounts(t *testing.T) {
	data := t.TempDir()
	h, err := Offer(data, Info{RunID: "r6", Command: "observatory mcp"})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	quick, idle := &window{answer: agent.AnswerDeny}, &window{}
	for _, w := range []*window{idle, quick} {
		watcher := Watch(data, w)
		defer watcher.Close()
	}
	until(t, "both windows to connect", func() bool { h.mu.Lock(); defer h.mu.Unlock(); return len(h.subs) == 2 })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if ans, err := h.Approver("a").Approve(ctx, agent.ApprovalRequest{Action: "click Send"}); ans != agent.AnswerDeny || err != nil {
		t.Errorf("the run took %q, %v; want the quick window's denial", ans, err)
	}
	until(t, "the other window's question to close", func() bool { idle.mu.Lock(); defer idle.mu.Unlock(); return len(idle.closed) == 1 })
}
