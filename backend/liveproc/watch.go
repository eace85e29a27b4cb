package liveproc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"observatory/backend/agent"
	"observatory/backend/runner"
	"observatory/backend/termsafe"
)

// Poll is how often a watcher looks for runs offered in the data folder, and how soon it
// connects again to one whose stream broke while its process lives.
const Poll = 250 * time.Millisecond

// replyTimeout bounds sending a window's answer back to the process.
const replyTimeout = 10 * time.Second

// ErrNotTaken is a window's answer the process refused: the ask had closed, answered on its
// terminal or in another window first, or out of time. The ask's close says what was taken.
var ErrNotTaken = errors.New("answered elsewhere first (the run's terminal or another window) or out of time: not taken")

// Follower is what a window does with the runs other processes offer. Its methods are
// called from the watcher's goroutines, one at a time for each run, in the order the run
// sent them.
type Follower interface {
	// Progress is the run's next progress event (none is sent twice).
	Progress(run Info, p runner.Progress)
	// Ask shows the window's user an ask open in the process; reply sends their answer back
	// to it, and fails (ErrNotTaken, or the process gone) when the process does not take it.
	// Closed follows, in every case.
	Ask(run Info, ask Ask, reply func(agent.ApprovalAnswer) error)
	// Closed says an ask shown closed: ask.Answer is what the process took, AnswerNone when
	// it took no answer or the window lost it (the process went away, the window stopped
	// following).
	Closed(run Info, ask Ask)
	// Ended says the process no longer offers the run: it finished, or it died (then no
	// run-finished event came).
	Ended(run Info)
}

// Watcher follows the runs offered in a data folder, until Close.
type Watcher struct {
	dataDir string
	window  string
	f       Follower
	present func() bool
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup

	mu        sync.Mutex
	following map[string]bool
}

// Watch follows, for f, every run offered in dataDir now or later, and sweeps what processes
// that died left. It connects to a run only while present says a person is before the window
// (serve with a page open; the desktop always), so that a run counts as watched (Host.Watched)
// only then: a window nobody looks at must not turn a question held at once into one waiting
// out its limit. window says what the window is, "desktop" or "serve", for the record of who
// answered.
func Watch(dataDir, window string, f Follower, present func() bool) *Watcher {
	ctx, cancel := context.WithCancel(context.Background())
	w := &Watcher{dataDir: dataDir, window: window, f: f, present: present, ctx: ctx, cancel: cancel, following: map[string]bool{}}
	w.wg.Add(1)
	go w.watch()
	return w
}

// Close stops following: every ask the window was shown closes, unanswered.
func (w *Watcher) Close() {
	w.cancel()
	w.wg.Wait()
}

func (w *Watcher) watch() {
	defer w.wg.Done()
	t := time.NewTicker(Poll)
	defer t.Stop()
	for {
		w.scan()
		select {
		case <-w.ctx.Done():
			return
		case <-t.C:
		}
	}
}

// scan starts following each run newly offered, and sweeps what dead processes left.
func (w *Watcher) scan() {
	d := dir(w.dataDir)
	entries, err := os.ReadDir(d)
	if err != nil {
		return // no folder yet: nothing was ever offered
	}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), infoExt)
		if !ok || strings.HasPrefix(id, ".") {
			debris(d, e)
			continue
		}
		w.mu.Lock()
		known := w.following[id]
		w.mu.Unlock()
		if known || !alive(d, id) { // the file of a process that died is deleted
			continue
		}
		info, err := readInfo(filepath.Join(d, e.Name()))
		if err != nil || info.RunID != id {
			continue // written by something else, or unreadable: never followed
		}
		w.mu.Lock()
		w.following[id] = true
		w.mu.Unlock()
		w.wg.Add(1)
		go w.follow(info)
	}
}

// follow reads the run's stream while a person is before the window, connecting again while
// its process lives and offers it, and tells the follower when it ends.
func (w *Watcher) follow(info Info) {
	defer w.wg.Done()
	defer func() {
		w.mu.Lock()
		delete(w.following, info.RunID)
		w.mu.Unlock()
	}()
	var seen uint64
	for {
		if w.present() {
			seen = w.stream(info, seen)
		}
		if w.ctx.Err() != nil {
			return
		}
		if _, err := os.Lstat(filepath.Join(dir(w.dataDir), info.RunID+infoExt)); err != nil || !alive(dir(w.dataDir), info.RunID) {
			w.f.Ended(info)
			return
		}
		select {
		case <-w.ctx.Done():
			return
		case <-time.After(Poll):
		}
	}
}

// stream reads the run's messages until the stream ends or nobody is before the window,
// passing on the progress numbered after seen and the asks; it returns the last number
// passed on. Every ask it showed is closed when it returns.
func (w *Watcher) stream(info Info, seen uint64) uint64 {
	ctx, cancel := context.WithCancel(w.ctx)
	defer cancel()
	go func() { // disconnect when the last person leaves
		t := time.NewTicker(Poll)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if !w.present() {
					cancel()
				}
			}
		}
	}()
	client, base := clientFor(info.Addr)
	defer client.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/events", nil)
	if err != nil {
		return seen
	}
	req.Header.Set("Authorization", "Bearer "+info.Token)
	resp, err := client.Do(req)
	if err != nil {
		return seen
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return seen
	}
	shown := map[string]Ask{}
	defer func() {
		for _, a := range shown {
			a.Open, a.Answer = false, agent.AnswerNone
			w.f.Closed(info, a)
		}
	}()
	dec := json.NewDecoder(resp.Body)
	for {
		var m Message
		if err := dec.Decode(&m); err != nil {
			return seen
		}
		switch {
		case m.Progress != nil && m.Seq > seen:
			seen = m.Seq
			w.f.Progress(info, *m.Progress)
		case m.Ask != nil && m.Ask.Open:
			if _, dup := shown[m.Ask.ID]; !dup {
				shown[m.Ask.ID] = *m.Ask
				w.f.Ask(info, *m.Ask, w.reply(ctx, client, base, info, m.Ask.ID))
			}
		case m.Ask != nil:
			if _, ok := shown[m.Ask.ID]; ok {
				delete(shown, m.Ask.ID)
				w.f.Closed(info, *m.Ask)
			}
		}
	}
}

// reply sends a window's answer to ask id back to the process (client, at base), while the
// stream that showed the ask lasts (ctx).
func (w *Watcher) reply(ctx context.Context, client *http.Client, base string, info Info, id string) func(agent.ApprovalAnswer) error {
	return func(ans agent.ApprovalAnswer) error {
		body, err := json.Marshal(answer{ID: id, Answer: ans, Window: w.window})
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(ctx, replyTimeout)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/answer", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+info.Token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return fmt.Errorf("sending the answer to %s: %w", info.Where(), err)
		}
		defer resp.Body.Close()
		switch resp.StatusCode {
		case http.StatusNoContent:
			return nil
		case http.StatusConflict:
			return ErrNotTaken
		}
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("%s refused the answer: %s %s", info.Where(), resp.Status, termsafe.String(strings.TrimSpace(string(msg))))
	}
}
