package app

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"observatory/backend/agent"
	"observatory/backend/runner"
)

// RunRequest is everything a run is made from. The command line, the desktop and serve all
// turn what they were asked into one, and Prepare builds the run from it: there is no other
// place that assembles a run.
type RunRequest struct {
	Task TaskSource
	// Attempts are the slugs to run, in order; empty runs them all.
	Attempts []string
	Override agent.ConfigOverride
	// Params override the app's parameters (a lab's save latency) for every attempt.
	Params map[string]int
	// Planner chooses each attempt's planner; nil follows the task's scripted plan.
	Planner func(agent.AttemptSpec) agent.Planner
	// Policy decides each proposal; nil is the harness's.
	Policy agent.Policy
	// Launch starts the browser the attempts run in.
	Launch runner.Launcher
	// MediaRoot is where the run's media folder is made; empty records no media.
	MediaRoot          string
	Video, Screenshots bool
	Trace              bool
	Recorder           agent.Recorder
	Emit               func(runner.Progress)
	// Export, when set, is where the run file will be written: Prepare checks up front that
	// its folder exists, so a long run does not fail only at its end.
	Export string
}

// Prepared is a run ready to start.
type Prepared struct {
	ID      string
	Specs   []agent.AttemptSpec
	Runner  *runner.Runner
	Options runner.Options
}

// Prepare checks req and builds its run: every attempt it names exists, every number is in
// range, and the export folder is there. Nothing is recorded until the run starts.
func Prepare(req RunRequest) (*Prepared, error) {
	if req.Task.Suite == nil {
		return nil, fmt.Errorf("no task to run")
	}
	specs, err := runner.Check(req.Task.Suite, req.Attempts, req.Override)
	if err != nil {
		return nil, err
	}
	if req.Export != "" {
		dir := filepath.Dir(req.Export)
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			return nil, fmt.Errorf("cannot export to %s: the folder %s does not exist", req.Export, dir)
		}
	}
	r := &runner.Runner{Suite: req.Task.Suite, Spec: req.Task.Spec, Planner: req.Planner, Policy: req.Policy,
		Launch: req.Launch, Recorder: req.Recorder, Emit: req.Emit}
	opts := runner.Options{Attempts: req.Attempts, Override: req.Override, Params: req.Params,
		MediaRoot: req.MediaRoot, Video: req.Video, Screenshots: req.Screenshots, Trace: req.Trace}
	return &Prepared{ID: runner.NewRunID(time.Now()), Specs: specs, Runner: r, Options: opts}, nil
}
