package liveproc

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"observatory/backend/agent"
	"observatory/backend/runner"
)

// Poll is how often a watcher looks for runs offered in the data folder, and how soon it
// connects again to one whose stream broke while its process lives.
const Poll = 250 * time.Millisecond

// Follower is what a window does with the runs other processes offer. Its methods are
// called from the watcher's goroutines: Progress in order for each run, Ask concurrently.
type Follower interface {
	// Progress is the run's next progress event (none is sent twice).
	Progress(run Info, p runner.Progress)
	// Ask asks the window's user to approve and waits for the answer, until ctx ends: the
	// ask was closed in the process (answered on its terminal, out of time) or the process
	// went away.
	Ask(ctx context.Context, run Info, ask Ask) (agent.ApprovalAnswer, error)
	// Ended says the process no longer offers the run: it finished, or it died (then no
	// run-finished event came).
	Ended(run Info)
}

// Watcher follows the runs offered in a data folder, until Close.
type Watcher struct {
	dataDir string
	f       Follower
	client  *http.Client
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup

	mu        sync.Mutex
	following map[string]bool
}

// Watch follows, for f, every run offered in dataDir now or later, and sweeps the discovery
// files of processes that died.
func Watch(dataDir string, f Follower) *Watcher {
	ctx, cancel := context.WithCancel(context.Background())
	w := &Watcher{dataDir: dataDir, f: f, client: &http.Client{}, ctx: ctx, cancel: cancel, following: map[string]bool{}}
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
		name := e.Name()
		if !strings.HasSuffix(name, infoExt) || strings.HasPrefix(name, ".") {
			continue
		}
		id := strings.TrimSuffix(name, infoExt)
		w.mu.Lock()
		known := w.following[id]
		w.mu.Unlock()
		if known {
			continue
		}
		if !alive(d, id) {
			continue
		}
		info, err := readInfo(filepath.Join(d, name))
		if err != nil || info.RunID != id {
			continue // written by something else: left alone, never followed
		}
		w.mu.Lock()
		w.following[id] = true
		w.mu.Unlock()
		w.wg.Add(1)
		go w.follow(info)
	}
}

// follow reads the run's stream, connecting again while its process lives and offers it,
// and tells the follower when it ends.
func (w *Watcher) follow(info Info) {
	defer w.wg.Done()
	defer func() {
		w.mu.Lock()
		delete(w.following, info.RunID)
		w.mu.Unlock()
	}()
	var seen uint64
	for {
		seen = w.stream(info, seen)
		if w.ctx.Err() != nil {
			return
		}
		if _, err := os.Stat(filepath.Join(dir(w.dataDir), info.RunID+infoExt)); err != nil || !alive(dir(w.dataDir), info.RunID) {
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

// stream reads the run's messages until the stream ends, passing on the progress numbered
// after seen and the asks; it returns the last number passed on. Every ask it opened is
// closed when it returns.
func (w *Watcher) stream(info Info, seen uint64) uint64 {
	ctx, cancel := context.WithCancel(w.ctx)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+info.Addr+"/events", nil)
	if err != nil {
		return seen
	}
	req.Header.Set("Authorization", "Bearer "+info.Token)
	resp, err := w.client.Do(req)
	if err != nil {
		return seen
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return seen
	}
	asks := map[string]context.CancelFunc{}
	var pending sync.WaitGroup
	defer func() {
		cancel()
		pending.Wait()
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
			if _, dup := asks[m.Ask.ID]; dup {
				continue
			}
			askCtx, closeAsk := context.WithCancel(ctx)
			asks[m.Ask.ID] = closeAsk
			pending.Add(1)
			go func(a Ask) {
				defer pending.Done()
				w.ask(askCtx, info, a)
			}(*m.Ask)
		case m.Ask != nil:
			if closeAsk, ok := asks[m.Ask.ID]; ok {
				closeAsk()
				delete(asks, m.Ask.ID)
			}
		}
	}
}

// ask shows a to the window's user and sends back the answer, if one came while it was open.
func (w *Watcher) ask(ctx context.Context, info Info, a Ask) {
	ans, err := w.f.Ask(ctx, info, a)
	if err != nil || ctx.Err() != nil || (ans != agent.AnswerApprove && ans != agent.AnswerDeny) {
		return
	}
	body, _ := json.Marshal(answer{ID: a.ID, Answer: ans})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+info.Addr+"/answer", bytes.NewReader(body))
	if err != nil {
		return
	}
	req.Header.Set("Authorization", "Bearer "+info.Token)
	req.Header.Set("Content-Type", "application/json")
	if resp, err := w.client.Do(req); err == nil {
		resp.Body.Close()
	}
}
