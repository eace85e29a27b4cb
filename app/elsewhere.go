package app

import (
	"fmt"
	"sync"

	"observatory/backend/agent"
	"observatory/backend/asking"
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
	// asks are the window's requests for the asks shown, by run id and the process's ask id.
	asks map[[2]string]*asking.Question[pendingAsk]
}

type remoteRun struct {
	info     liveproc.Info
	log      liveLog
	finished bool
}

func newElsewhere(emit Emitter, approvals *Approvals) *elsewhere {
	return &elsewhere{emit: emit, approvals: approvals, going: map[string]*remoteRun{}, asks: map[[2]string]*asking.Question[pendingAsk]{}}
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

// Ask asks the window's user as for a run started here; their answer is sent to the process,
// and the request closes when the process says what it took (Closed).
func (e *elsewhere) Ask(info liveproc.Info, a liveproc.Ask, reply func(agent.ApprovalAnswer) error) {
	q := e.approvals.open(info.RunID, a.Slug, a.Request, reply)
	e.mu.Lock()
	e.asks[[2]string{info.RunID, a.ID}] = q
	e.mu.Unlock()
}

// Closed closes the window's request with what the process took.
func (e *elsewhere) Closed(info liveproc.Info, a liveproc.Ask) {
	key := [2]string{info.RunID, a.ID}
	e.mu.Lock()
	q := e.asks[key]
	delete(e.asks, key)
	e.mu.Unlock()
	if q != nil {
		e.approvals.settle(q, a.Answer)
	}
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
