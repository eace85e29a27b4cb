package app

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"observatory/backend/agent"
	"observatory/backend/labs"
	"observatory/backend/runfile"
	"observatory/backend/runner"
	"observatory/backend/store"
)

// LabInfo describes a lab for the UI: its task, its plan and the attempts it offers.
type LabInfo struct {
	Name     string              `json:"name"`
	Task     agent.Task          `json:"task"`
	Plan     agent.Plan          `json:"plan"`
	Attempts []agent.AttemptSpec `json:"attempts"`
}

// StartRequest asks for a run. Empty Attempts runs them all; a nil Config uses the override
// saved in the settings.
type StartRequest struct {
	Lab      string                `json:"lab"`
	Attempts []string              `json:"attempts"`
	Config   *agent.ConfigOverride `json:"config"`
}

// ErrRunGoing is returned by Start while another run is still going.
var ErrRunGoing = errors.New("a run is already going: stop it first")

// Runs starts and stops runs and reads the history. One run goes at a time.
type Runs struct {
	store    *store.Store
	settings *Settings
	emit     Emitter
	media    string
	launch   func(headed bool, executable string) runner.Launcher

	mu      sync.Mutex
	current *liveRun
}

type liveRun struct {
	id     string
	cancel context.CancelFunc
	done   chan struct{}
}

// Labs lists the labs with their plans and attempts.
func (r *Runs) Labs() ([]LabInfo, error) {
	var out []LabInfo
	for _, name := range labs.Names() {
		l, err := labs.Get(name)
		if err != nil {
			return nil, err
		}
		out = append(out, LabInfo{Name: l.Name(), Task: l.Task(), Plan: l.Plan(), Attempts: l.Attempts()})
	}
	return out, nil
}

// Start begins a run in the background and returns its id. Progress arrives as "run" events.
func (r *Runs) Start(req StartRequest) (string, error) {
	lab, err := labs.Get(req.Lab)
	if err != nil {
		return "", err
	}
	set, err := r.settings.Get()
	if err != nil {
		return "", err
	}
	override := set.Config
	if req.Config != nil {
		override = *req.Config
	}
	if _, err := runner.Check(lab, req.Attempts, override); err != nil {
		return "", err
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	if r.current != nil {
		return "", ErrRunGoing
	}
	ctx, cancel := context.WithCancel(context.Background())
	live := &liveRun{id: runner.NewRunID(time.Now()), cancel: cancel, done: make(chan struct{})}
	r.current = live
	finished := false // whether the runner reported the run's end itself
	rn := &runner.Runner{Lab: lab, Launch: r.launch(set.Headed, set.BrowserPath), Recorder: r.store,
		Emit: func(p runner.Progress) {
			finished = finished || p.Kind == runner.RunFinished
			r.emit.Emit(EventRun, p)
		}}
	opts := runner.Options{Attempts: req.Attempts, Override: override, MediaRoot: r.media, Video: set.Video, Screenshots: set.Screenshots, Trace: set.Trace}
	go func() {
		defer close(live.done)
		defer cancel()
		// Once the run is recorded, the runner reports its own errors and end; an error before
		// that (say, no media folder) must still reach the UI and end the run, exactly once.
		if _, err := rn.Run(ctx, live.id, opts); err != nil && !finished {
			r.emit.Emit(EventRun, runner.Progress{RunID: live.id, Kind: runner.Error, Message: err.Error()})
			r.emit.Emit(EventRun, runner.Progress{RunID: live.id, Kind: runner.RunFinished, Status: agent.RunInterrupted})
		}
		r.mu.Lock()
		if r.current == live {
			r.current = nil
		}
		r.mu.Unlock()
	}()
	return live.id, nil
}

// Stop cancels the current run, if any, and waits until it has wound down: its page is
// closed, its pending save aborted and its last attempt recorded as cancelled.
func (r *Runs) Stop() error {
	r.mu.Lock()
	live := r.current
	r.mu.Unlock()
	if live == nil {
		return nil
	}
	live.cancel()
	select {
	case <-live.done:
		return nil
	case <-time.After(30 * time.Second):
		return fmt.Errorf("run %s did not stop within 30 s", live.id)
	}
}

// Reset stops any run; the UI clears its live view. Nothing of a stopped run can arrive
// afterwards, because Stop waits for it to finish.
func (r *Runs) Reset() error { return r.Stop() }

// History lists stored runs, newest first.
func (r *Runs) History() ([]store.Summary, error) { return r.store.List() }

// Get returns one stored run (a unique id prefix is enough).
func (r *Runs) Get(id string) (agent.Run, error) { return r.store.Get(id) }

// Replay rebuilds one attempt of a stored run from its events, frame by frame, and
// recomputes its verdicts beside the ones recorded.
func (r *Runs) Replay(id, slug string) (runfile.AttemptReplay, error) {
	run, err := r.store.Get(id)
	if err != nil {
		return runfile.AttemptReplay{}, err
	}
	lab, err := labs.Get(run.Lab)
	if err != nil {
		return runfile.AttemptReplay{}, err
	}
	for _, a := range run.Attempts {
		if a.Slug == slug {
			return runfile.ReplayAttempt(lab, a)
		}
	}
	return runfile.AttemptReplay{}, fmt.Errorf("run %s has no attempt %q", run.ID, slug)
}
