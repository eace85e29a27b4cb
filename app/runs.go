package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"observatory/app/apierror"
	"observatory/backend/agent"
	"observatory/backend/labs"
	"observatory/backend/runfile"
	"observatory/backend/runner"
	"observatory/backend/store"
	"observatory/backend/taskfile"
)

// TaskInfo describes a task for the UI: its intent, plan and attempts, and the columns its
// verdicts fill (the ground truth, each signal and each gate condition, by ID and label).
type TaskInfo struct {
	// Ref names the task in a StartRequest ("lab:booking", "file:3fa9…").
	Ref string `json:"ref"`
	// File is the task file's name, for tasks opened from a file.
	File string `json:"file,omitempty"`
	// Path is where the task file is, for one picked in the desktop's dialog.
	Path string `json:"path,omitempty"`
	// Missing says why a remembered task file cannot be opened now (moved or deleted, or no
	// longer a valid task); the task is then listed, but cannot run until it is opened again.
	Missing  string              `json:"missing,omitempty"`
	Task     agent.Task          `json:"task"`
	Plan     agent.Plan          `json:"plan"`
	Attempts []agent.AttemptSpec `json:"attempts"`
	Columns  agent.Verdicts      `json:"columns"`
	// Env are the environment variables a task file reads, and whether the user allowed each:
	// the window asks before a run for those not allowed.
	Env []taskfile.EnvVar `json:"env,omitempty"`
}

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

// Runs starts and stops runs and reads the history. One run goes at a time.
type Runs struct {
	store    *store.Store
	settings *Settings
	emit     Emitter
	media    string
	recent   *recentTasks
	// dialogs are the desktop's native file dialogs; nil outside it.
	dialogs Dialogs
	// approvals answers the approval requests of the runs started here.
	approvals *Approvals
	launch    func(headed bool, executable string) runner.Launcher
	// remote, perEndpoint and labHost are the command line's browser endpoints and lab
	// address; load counts the attempts running on each endpoint.
	remote      []RemoteBrowser
	perEndpoint int
	labHost     string
	load        *endpointLoad

	// replays keeps the replays of finished runs' attempts.
	replays replayCache

	mu      sync.Mutex
	current *liveRun
	// suite is the suite run going now, whose runs follow each other; nil when none is.
	suite *liveSuite
	// shown is the run the window last opened (Header), which retention keeps.
	shown string
}

type liveRun struct {
	id      string
	planned []string
	cancel  context.CancelCauseFunc
	done    chan struct{}
	log     liveLog
}

// Tasks lists the tasks there are to run: the labs' built-in tasks, then the task files
// opened here, newest first. A remembered file that no longer reads is listed as missing.
func (r *Runs) Tasks() ([]TaskInfo, error) {
	var out []TaskInfo
	for _, name := range labs.Names() {
		src, err := LabTask(name)
		if err != nil {
			return nil, err
		}
		out = append(out, describe(labPrefix+name, src))
	}
	recent, err := r.recent.list()
	if err != nil {
		return nil, err
	}
	for _, t := range recent {
		info := TaskInfo{Ref: t.Ref, File: t.Name, Path: t.Path, Task: agent.Task{Name: t.Name}}
		if src, err := r.sourceOf(t); err != nil {
			info.Missing = err.Error()
		} else {
			info = describe(t.Ref, src)
			info.File, info.Path = t.Name, t.Path
		}
		out = append(out, info)
	}
	return out, nil
}

// LoadTask checks the text of a task file (name is its file name, for messages) and
// remembers it among the recent tasks. The UI reads the file itself, by a file picker or a
// drop, so no path ever comes from it.
func (r *Runs) LoadTask(name, content string) (TaskInfo, error) {
	trust, err := r.trust()
	if err != nil {
		return TaskInfo{}, err
	}
	src, err := ParseTaskFile(name, []byte(content), taskfile.Options{Trust: trust})
	if err != nil {
		return TaskInfo{}, err
	}
	ref, err := r.recent.add(name, []byte(content))
	if err != nil {
		return TaskInfo{}, err
	}
	info := describe(ref, src)
	info.File = filepath.Base(name)
	return info, nil
}

// ForgetTask removes an opened task file from the recent tasks.
func (r *Runs) ForgetTask(ref string) error {
	if !validRef(ref) {
		return fmt.Errorf("%q is not an opened task file", ref)
	}
	return r.recent.forget(ref)
}

// describe is the TaskInfo of src, its columns labelled by judging no evidence at all.
func describe(ref string, src TaskSource) TaskInfo {
	s := src.Suite
	cols, _ := s.Judge(agent.Evidence{})
	info := TaskInfo{Ref: ref, Task: s.Task(), Plan: s.Plan(), Attempts: s.Attempts(), Columns: cols}
	if t, ok := s.(taskfile.Suite); ok {
		info.Env = t.Outline().Env
	}
	return info
}

// source finds the task a reference names: a lab's, or a task file opened here, which may
// also read the environment variables allowEnv names.
func (r *Runs) source(ref string, allowEnv []string) (TaskSource, error) {
	if !strings.HasPrefix(ref, filePrefix) {
		return LabTask(ref)
	}
	t, err := r.recent.get(ref)
	if err != nil {
		return TaskSource{}, err
	}
	return r.sourceOf(t, allowEnv...)
}

// sourceOf reads a remembered task file: from its path, or its kept text. It may also read
// the environment variables allowEnv names.
func (r *Runs) sourceOf(t recentTask, allowEnv ...string) (TaskSource, error) {
	trust, err := r.trust()
	if err != nil {
		return TaskSource{}, err
	}
	trust.Env = append(trust.Env, allowEnv...)
	if t.Path != "" {
		if _, err := os.Stat(t.Path); errors.Is(err, fs.ErrNotExist) {
			return TaskSource{}, fmt.Errorf("%s is missing: it was moved or deleted since it was opened", t.Path)
		}
		return LoadTaskFile(t.Path, taskfile.Options{Trust: trust})
	}
	text, err := r.recent.text(t.Ref)
	if err != nil {
		return TaskSource{}, err
	}
	return ParseTaskFile(t.Name, text, taskfile.Options{Trust: trust})
}

// trust is what the user's settings let task files opened here reach.
func (r *Runs) trust() (taskfile.Trust, error) {
	set, err := r.settings.Get()
	if err != nil {
		return taskfile.Trust{}, err
	}
	return set.Trust(taskfile.Trust{}), nil
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
	src, err := r.source(req.Task, req.AllowEnv)
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
		Video: set.Video, Screenshots: set.Screenshots, Trace: set.Trace, Bodies: set.Bodies, Recorder: r.store, Emit: report})
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
// opens or reloads while it goes; its ID is "" when none is.
func (r *Runs) Going() GoingRun {
	r.mu.Lock()
	live := r.current
	suite := ""
	if r.suite != nil {
		suite = r.suite.id
	}
	r.mu.Unlock()
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

// History lists stored runs, newest first.
func (r *Runs) History() ([]store.Summary, error) { return r.store.List() }

// Get returns one stored run whole (a unique id prefix is enough): every step with its
// samples. The window opens a run with Header instead, and reads its steps with Steps.
func (r *Runs) Get(id string) (agent.Run, error) { return r.store.Get(id) }

// Header returns one stored run with its attempts, their verdicts and events, their steps
// counted and, for attempts of at most store.InlineSteps steps, summarised, but no step
// itself: what the window opens a run with, however long it is. Retention keeps the run it
// last returned.
func (r *Runs) Header(id string) (store.RunHeader, error) {
	h, err := r.store.Header(id)
	if err == nil {
		r.mu.Lock()
		r.shown = h.ID
		r.mu.Unlock()
	}
	return h, err
}

// Summaries returns the summary of every step of attempt slug of stored run id: the step
// list and timeline of an attempt too long for its header to carry them.
func (r *Runs) Summaries(id, slug string) ([]agent.StepSummary, error) {
	return r.store.Summaries(id, slug)
}

// MaxSteps is the most steps one call of Steps returns.
const MaxSteps = 100

// Steps returns up to count steps of attempt slug of stored run id whole, from the one at
// position from (0 is the first): the window reads the steps it shows, and those next to
// them, this way. A count above MaxSteps is refused.
func (r *Runs) Steps(id, slug string, from, count int) ([]agent.Step, error) {
	if count > MaxSteps {
		return nil, fmt.Errorf("%d steps asked for at once; at most %d", count, MaxSteps)
	}
	return r.store.Steps(id, slug, from, count)
}

// Replay rebuilds one attempt of a stored run from its events, frame by frame, and
// recomputes its verdicts beside the ones recorded. It reads that attempt alone, and once
// the run has finished keeps the answer, which cannot change.
func (r *Runs) Replay(id, slug string) (runfile.AttemptReplay, error) {
	stamp, err := r.store.Stamp(id)
	if err != nil {
		return runfile.AttemptReplay{}, err
	}
	key := replayKey{run: stamp.ID, added: stamp.Added, slug: slug}
	if rep, ok := r.replays.get(key); ok {
		return rep, nil
	}
	run, err := r.store.Attempt(stamp.ID, slug)
	if err != nil {
		return runfile.AttemptReplay{}, err
	}
	suite, err := Resolve(run.Task, run.Spec)
	if err != nil {
		return runfile.AttemptReplay{}, err
	}
	rep, err := runfile.ReplayAttempt(suite, run.Attempts[0])
	if err == nil && stamp.Status != agent.RunRunning {
		r.replays.put(key, rep)
	}
	return rep, err
}
