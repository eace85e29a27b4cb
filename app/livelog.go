package app

import (
	"sync"

	"observatory/backend/liveproc"
	"observatory/backend/runner"
)

// RunEvent is the payload of an EventRun event of a run going: the runner's progress,
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
	// Elsewhere names the process running the run when another process of the data folder
	// runs it ("observatory mcp, pid 4242"); "" for a run started from this window.
	Elsewhere string `json:"elsewhere,omitempty"`
	// Planned are the slugs of the attempts the run tries, in order.
	Planned []string   `json:"planned"`
	Events  []RunEvent `json:"events"`
}

// liveLog numbers a run's events as they are sent and keeps what a late window needs to
// rebuild its live view (see liveproc.Backlog). Screencast frames never reach it: they go
// under EventLive.
type liveLog struct {
	// sending keeps the numbering and the sending in the same order.
	sending sync.Mutex
	backlog liveproc.Backlog
}

// send numbers p, keeps it as the log says, and emits it under EventRun.
func (l *liveLog) send(to Emitter, p runner.Progress) {
	l.sending.Lock()
	defer l.sending.Unlock()
	to.Emit(EventRun, RunEvent(l.backlog.Add(p)))
}

// events are the kept events, in order.
func (l *liveLog) events() []RunEvent {
	kept := l.backlog.Events()
	out := make([]RunEvent, len(kept))
	for i, e := range kept {
		out[i] = RunEvent(e)
	}
	return out
}
