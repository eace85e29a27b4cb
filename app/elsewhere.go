package app

import (
	"context"
	"fmt"
	"sync"

	"observatory/backend/agent"
	"observatory/backend/liveproc"
	"observatory/backend/runner"
)

// elsewhere follows the runs that other processes of the data folder run (observatory mcp,
// observatory run; see liveproc): their progress reaches the window as that of a run started
// here does, under EventRun and EventLive, and their approval requests join the window's own
// (Approvals), the answer going back to the process that asked.
type elsewhere struct {
	emit      Emitter
	approvals *Approvals

	mu sync.Mutex
	// going are the runs followed that have not ended, by id.
	going map[string]*remoteRun
}

type remoteRun struct {
	info     liveproc.Info
	log      liveLog
	finished bool
}

func newElsewhere(emit Emitter, approvals *Approvals) *elsewhere {
	return &elsewhere{emit: emit, approvals: approvals, going: map[string]*remoteRun{}}
}

// run is the run info describes, followed from now on if it was not yet.
func (e *elsewhere) run(info liveproc.Info) *remoteRun {
	e.mu.Lock()
	defer e.mu.Unlock()
	r := e.going[info.RunID]
	if r == nil {
		r = &remoteRun{info: info}
		e.going[info.RunID] = r
	}
	return r
}

// Progress passes the run's progress on to the window, numbered as a run of its own is.
func (e *elsewhere) Progress(info liveproc.Info, p runner.Progress) {
	r := e.run(info)
	if p.Kind == runner.Screencast {
		e.emit.Emit(EventLive, p)
		return
	}
	if p.Kind == runner.RunFinished {
		e.mu.Lock()
		r.finished = true
		delete(e.going, info.RunID)
		e.mu.Unlock()
	}
	r.log.send(e.emit, p)
}

// Ask asks the window's user as for a run started here; the ask closes unanswered when ctx
// ends.
func (e *elsewhere) Ask(ctx context.Context, info liveproc.Info, a liveproc.Ask) (agent.ApprovalAnswer, error) {
	return e.approvals.forRun(info.RunID)(agent.AttemptSpec{Slug: a.Slug}).Approve(ctx, a.Request)
}

// Ended ends the window's view of a run whose process went away without saying it finished.
func (e *elsewhere) Ended(info liveproc.Info) {
	e.mu.Lock()
	r := e.going[info.RunID]
	delete(e.going, info.RunID)
	e.mu.Unlock()
	if r == nil || r.finished {
		return
	}
	r.log.send(e.emit, runner.Progress{RunID: info.RunID, Kind: runner.Error,
		Message: fmt.Sprintf("%s ended without finishing run %s", info.Where(), info.RunID)})
	r.log.send(e.emit, runner.Progress{RunID: info.RunID, Kind: runner.RunFinished, Status: agent.RunInterrupted})
}

// newest is the run going elsewhere that started last, as Runs.Going tells it; ok is false
// when none is going.
func (e *elsewhere) newest() (g GoingRun, ok bool) {
	e.mu.Lock()
	var last *remoteRun
	for _, r := range e.going {
		if last == nil || r.info.Started.After(last.info.Started) {
			last = r
		}
	}
	e.mu.Unlock()
	if last == nil {
		return GoingRun{}, false
	}
	return GoingRun{ID: last.info.RunID, Elsewhere: last.info.Where(), Events: last.log.events()}, true
}
