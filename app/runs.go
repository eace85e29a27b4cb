package app

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"observatory/app/apierror"
	"observatory/backend/agent"
	"observatory/backend/runner"
	"observatory/backend/store"
)

// StartRequest asks for a run. Empty Attempts runs them all; a nil Config uses the override
// saved in the settings.
type StartRequest struct {
	Task     string                `json:"task"`
	Attempts []string              `json:"attempts"`
	Config   *agent.ConfigOverride `json:"config"`
	// AllowEnv are environment variables the user allowed the task, for this run only, by
	// answering yes in the window to the question it asked.
	AllowEnv []string `json:"allow_env,omitempty"`
	// Repeat runs every attempt this many times, as trials (see agent.Trials); 0 or 1 once.
	Repeat int `json:"repeat,omitempty"`
}

// LiveInterval is how often the window gets a frame of each running attempt's page: ten a
// second.
const LiveInterval = 100 * time.Millisecond

// ErrRunGoing is returned by Start while another run is still going.
var ErrRunGoing = apierror.New(apierror.Conflict, "a run is already going: stop it first")

// startGrace is how long Start waits for the current run to end before it refuses with
// ErrRunGoing: a run whose attempts are over may still be finishing its videos, and a window
// reloaded meanwhile does not know it is going.
const startGrace = 5 * time.Second

// Runs starts and stops the window's runs, one at a time, and tells a window that opens
// meanwhile what has happened so far.
type Runs struct {
	store    *store.Store
	settings *Settings
	emit     Emitter
	media    string
	// tasks finds the task a StartRequest names; history applies retention once a run ends.
	tasks   *Tasks
	history *History
	// approvals answers the approval requests of the runs started here; elsewhere follows
	// the runs other processes of the data folder run.
	approvals *Approvals
	elsewhere *elsewhere
	launch    func(headed bool, executable string) runner.Launcher
	// remote, perEndpoint and labHost are the command line's browser endpoints and lab
	// address; load counts the attempts running on each endpoint.
	remote      []RemoteBrowser
	perEndpoint int
	labHost     string
	load        *endpointLoad

	mu      sync.Mutex
	current *liveRun
	// suite is the suite run going now, whose runs follow each other; nil when none is.
	suite *liveSuite
}

type liveRun struct {
	id      string
	planned []string
	cancel  context.CancelCauseFunc
	done    chan struct{}
	log     liveLog
}

// Start begins a run in the background and returns its id. Progress arrives as "run" events.
// While a suite run goes (StartSuite), it is refused as another run would be.
func (r *Runs) Start(req StartRequest) (string, error) {
	r.mu.Lock()
	suite := r.suite
	r.mu.Unlock()
	if suite != nil {
		return "", ErrRunGoing
	}
	live, err := r.start(req, "")
	if err != nil {
		return "", err
	}
	return live.id, nil
}

// start begins the run req asks for in the background, one task of suite run suiteRun when
// that is not empty, and returns it going.
func (r *Runs) start(req StartRequest, suiteRun string) (*liveRun, error) {
	src, err := r.tasks.source(req.Task, req.AllowEnv)
	if err != nil {
		return nil, err
	}
	set, err := r.settings.Get()
	if err != nil {
		return nil, err
	}
	override := set.Config
	if req.Config != nil {
		override = *req.Config
	}
	id := runner.NewRunID(time.Now())
	finished := false // whether the runner reported the run's end itself
	live := &liveRun{id: id}
	// report forwards p to the UI; the run stops being current before the UI hears that it
	// ended, so a Start right after is not refused.
	report := func(p runner.Progress) {
		r.load.observe(p)
		if p.Kind == runner.RunFinished {
			finished = true
			r.release(live)
			r.pruneAfterRun(id)
		}
		if p.Kind == runner.Screencast {
			r.emit.Emit(EventLive, p)
			return
		}
		live.log.send(r.emit, p)
	}
	media := ""
	if r.media != "" {
		media = filepath.Join(r.media, id)
	}
	plan, err := windowPlanner(src, set, id, media, report)
	if err != nil {
		return nil, err
	}
	prep, err := Prepare(RunRequest{ID: id, Task: src, Attempts: req.Attempts, Repeat: req.Repeat, SuiteRun: suiteRun, Override: override, Approver: r.approvals.forRun(id), Planner: plan,
		ReviewModels: ReviewModels(src, set.Models), Naive: set.Harness == HarnessOff,
		Parallel: set.Parallel, Launch: r.launch(set.Headed, set.BrowserPath), Remote: r.remote, PerEndpoint: r.perEndpoint,
		LabHost: r.labHost, Live: LiveInterval, MediaRoot: r.media,
		Media: set.Media, Recorder: r.store, Emit: report})
	if err != nil {
		return nil, err
	}

	r.mu.Lock()
	going := r.current
	r.mu.Unlock()
	if going != nil {
		select {
		case <-going.done:
		case <-time.After(startGrace):
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.current != nil {
		return nil, ErrRunGoing
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	live.planned, live.cancel, live.done = slugs(prep.Specs), cancel, make(chan struct{})
	r.current = live
	go func() {
		defer close(live.done)
		defer cancel(nil)
		// Once the run is recorded, the runner reports its own errors and end; an error before
		// that (say, no media folder) must still reach the UI and end the run, exactly once.
		if _, err := prep.Runner.Run(ctx, live.id, prep.Options); err != nil && !finished {
			report(runner.Progress{RunID: live.id, Kind: runner.Error, Message: err.Error()})
			report(runner.Progress{RunID: live.id, Kind: runner.RunFinished, Status: agent.RunInterrupted})
		}
		r.release(live)
	}()
	return live, nil
}

// Going is the run going now and what the window has been told of it, for a window that
// opens or reloads while it goes; its ID is "" when none is. With none started here, it is
// the newest run going in another process of the data folder (observatory mcp, run).
func (r *Runs) Going() GoingRun {
	r.mu.Lock()
	live := r.current
	suite := ""
	if r.suite != nil {
		suite = r.suite.id
	}
	r.mu.Unlock()
	if live == nil && suite == "" && r.elsewhere != nil {
		if g, ok := r.elsewhere.newest(); ok {
			return g
		}
	}
	if live == nil {
		return GoingRun{SuiteRun: suite}
	}
	return GoingRun{ID: live.id, SuiteRun: suite, Planned: live.planned, Events: live.log.events()}
}

// release makes live no longer the current run, if it still is.
func (r *Runs) release(live *liveRun) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.current == live {
		r.current = nil
	}
}

// Stop is the kill switch: it cancels the current run, if any, and waits until it has wound
// down: a commit in flight reconciled, its page closed (finishing the video), its pending save
// aborted and its last attempt recorded as cancelled.
// A suite run going stops too: no run of it starts after.
func (r *Runs) Stop() error {
	suite := r.stopSuite()
	r.mu.Lock()
	live := r.current
	r.mu.Unlock()
	timeout := time.After(30 * time.Second)
	if live != nil {
		live.cancel(agent.ErrStopped)
		select {
		case <-live.done:
		case <-timeout:
			return fmt.Errorf("run %s did not stop within 30 s", live.id)
		}
	}
	if suite != nil {
		select {
		case <-suite.done:
		case <-timeout:
			return fmt.Errorf("suite run %s did not stop within 30 s", suite.id)
		}
	}
	return nil
}

// Reset stops any run; the UI clears its live view. Nothing of a stopped run can arrive
// afterwards, because Stop waits for it to finish.
func (r *Runs) Reset() error { return r.Stop() }

// goingID is the ID of the run going now; "" when none is.
func (r *Runs) goingID() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.current == nil {
		return ""
	}
	return r.current.id
}
