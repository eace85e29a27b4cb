package app

import (
	"slices"
	"sync"

	"observatory/backend/runner"
)

// RunEvent is the payload of an EventRun event of a run started here: the runner's progress,
// numbered in the order the window is sent it. A window that opens while the run goes reads
// Going, folds its events, then skips every event numbered at or below the last it folded.
type RunEvent struct {
	runner.Progress
	// Seq counts the run's events from 1.
	Seq uint64 `json:"seq"`
}

// GoingRun is the run going now, as far as the window has been told of it: folding Events
// in order into a live view of Planned gives what a window open since the start shows.
type GoingRun struct {
	// ID is the run's id; "" when no run is going.
	ID string `json:"id"`
	// SuiteRun is the suite run going, when the run is one task of it (or between two of
	// its runs, when ID is "").
	SuiteRun string `json:"suite_run,omitempty"`
	// Planned are the slugs of the attempts the run tries, in order.
	Planned []string   `json:"planned"`
	Events  []RunEvent `json:"events"`
}

// liveLog numbers a run's events as they are sent and keeps what a late window needs to
// rebuild its live view: every event, less what an ended attempt no longer needs (its steps
// are in its attempt-finished event; its checks, frames and waits show only while it runs)
// and all but the newest frame and wait of a running one. Screencast frames never reach it:
// they go under EventLive, and the next one comes within a tenth of a second.
type liveLog struct {
	// sending keeps the numbering and the sending in the same order.
	sending sync.Mutex
	mu      sync.Mutex
	seq     uint64
	kept    []RunEvent
}

// send numbers p, keeps it as the log says, and emits it under EventRun.
func (l *liveLog) send(to Emitter, p runner.Progress) {
	l.sending.Lock()
	defer l.sending.Unlock()
	to.Emit(EventRun, l.keep(p))
}

// keep numbers p and keeps it, dropping what it makes redundant.
func (l *liveLog) keep(p runner.Progress) RunEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	e := RunEvent{Progress: p, Seq: l.seq}
	switch {
	case p.Kind == runner.AttemptFinished && p.Attempt != nil:
		l.kept = slices.DeleteFunc(l.kept, func(k RunEvent) bool { return k.Slug == p.Slug && whileRunning(k.Kind) })
	case p.Kind == runner.Frame || p.Kind == runner.ModelWait:
		l.kept = slices.DeleteFunc(l.kept, func(k RunEvent) bool { return k.Slug == p.Slug && k.Kind == p.Kind })
	}
	l.kept = append(l.kept, e)
	return e
}

// whileRunning says whether events of kind k matter only until their attempt's finished
// event: its steps are in that event, and its checks, frames and waits show only while it runs.
func whileRunning(k runner.Kind) bool {
	switch k {
	case runner.StepDone, runner.CheckDone, runner.Frame, runner.ModelWait:
		return true
	}
	return false
}

// events are the kept events, in order.
func (l *liveLog) events() []RunEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.kept)
}
