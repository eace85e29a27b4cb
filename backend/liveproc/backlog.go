package liveproc

import (
	"slices"
	"sync"

	"observatory/backend/runner"
)

// Numbered is a progress event numbered in the order it was sent, from 1.
type Numbered struct {
	runner.Progress
	Seq uint64 `json:"seq"`
}

// Backlog numbers a run's progress events and keeps what someone who starts watching late
// needs to rebuild the run's live view: every event, less what an ended attempt no longer
// needs (its steps are in its attempt-finished event; its checks, frames and waits show only
// while it runs) and all but the newest frame and wait of a running one. Screencast frames
// are numbered but never kept: the next one comes within a tenth of a second.
type Backlog struct {
	mu   sync.Mutex
	seq  uint64
	kept []Numbered
}

// Add numbers p and keeps it as the backlog says.
func (b *Backlog) Add(p runner.Progress) Numbered {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	e := Numbered{Progress: p, Seq: b.seq}
	switch {
	case p.Kind == runner.Screencast:
		return e
	case p.Kind == runner.AttemptFinished && p.Attempt != nil:
		b.kept = slices.DeleteFunc(b.kept, func(k Numbered) bool { return k.Slug == p.Slug && whileRunning(k.Kind) })
	case p.Kind == runner.Frame || p.Kind == runner.ModelWait:
		b.kept = slices.DeleteFunc(b.kept, func(k Numbered) bool { return k.Slug == p.Slug && k.Kind == p.Kind })
	}
	b.kept = append(b.kept, e)
	return e
}

// Events are the kept events, in order.
func (b *Backlog) Events() []Numbered {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.kept)
}

// whileRunning says whether events of kind k matter only until their attempt's finished
// event.
func whileRunning(k runner.Kind) bool {
	switch k {
	case runner.StepDone, runner.CheckDone, runner.Frame, runner.ModelWait:
		return true
	}
	return false
}
