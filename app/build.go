package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"observatory/backend/agent"
	"observatory/backend/browser"
	"observatory/backend/harness"
	"observatory/backend/labs"
	"observatory/backend/planner/model"
	"observatory/backend/runner"
)

// RunRequest is everything a run is made from. The command line, the desktop and serve all
// turn what they were asked into one, and Prepare builds the run from it: there is no other
// place that assembles a run.
type RunRequest struct {
	// ID is the run's id; empty makes a fresh one.
	ID   string
	Task TaskSource
	// Attempts are the slugs to run, in order; empty runs them all.
	Attempts []string
	// Repeat runs each attempt this many times, as trials (see agent.Trials); 0 or 1 once.
	Repeat   int
	Override agent.ConfigOverride
	// Params override the app's parameters (a lab's save latency) for every attempt.
	Params map[string]int
	// Budgets' bounded fields replace the run budgets the task sets (see agent.RunBounded).
	Budgets agent.Budgets
	// Parallel is how many attempts run at once; 0 or 1 runs them one after another.
	Parallel int
	// Shard, when set, runs only its share of the attempts, so machines can split a suite.
	Shard *Shard
	// Planner chooses each attempt's planner; nil follows the task's scripted plan.
	Planner func(agent.AttemptSpec) agent.Planner
	// Policy decides each proposal; nil is the harness's, or none when Naive.
	Policy agent.Policy
	// ReviewModels are the models the harness's model reviewer asks, in order, for safeguards
	// that name one (reviewer: model); none leaves such a review unavailable.
	ReviewModels []model.ModelConfig
	// Naive turns the harness off, for the naive column: the same plan with every action
	// admitted within the budget, no review or approval, ambiguous commits retried blindly.
	Naive bool
	// Approver returns who approves an attempt's irreversible actions when its safeguards
	// ask; nil asks nobody, so they are held.
	Approver func(agent.AttemptSpec) agent.Approver
	// Launch starts the browser the attempts run in, unless Remote names browsers elsewhere.
	Launch runner.Launcher
	// Remote are browser servers and CDP endpoints to spread the attempts over, each taking
	// PerEndpoint attempts at once (default: as many as Parallel).
	Remote      []RemoteBrowser
	PerEndpoint int
	// MediaRoot is where the run's media folder is made; empty records no media.
	MediaRoot string
	// Media is what each attempt records.
	agent.Media
	// Live is how often each running attempt's page is sent as a screencast progress event;
	// 0 streams nothing (the command line prints no pictures).
	Live time.Duration
	// LabHost is an address of this machine that remote browsers can reach: the task's labs
	// listen there and advertise it, and each remote page's origins guard listens there; empty
	// is 127.0.0.1.
	LabHost string
	// SuiteRun is the suite run this run is one task of (see NewSuiteRunID); empty for none.
	SuiteRun string
	Recorder agent.Recorder
	Emit     func(runner.Progress)
	// Sequence, when set, decides the attempts one at a time (an agent's session), from
	// those Attempts names; see runner.Sequence.
	Sequence runner.Sequence
	// Export, when set, is where the run file will be written: Prepare checks up front that
	// its folder exists, so a long run does not fail only at its end.
	Export string
}

// MaxParallel is the most attempts a run may have going at once.
const MaxParallel = 32

// Prepared is a run ready to start.
type Prepared struct {
	ID string
	// LabHost is the address the task's lab listens on and advertises to the browser; empty
	// for a task on a site of its own, which nothing here serves.
	LabHost string
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
	specs, err := runner.Check(req.Task.Suite, req.Attempts, req.Repeat, req.Override)
	if err != nil {
		return nil, err
	}
	if req.Shard != nil {
		if specs, err = req.Shard.Of(specs); err != nil {
			return nil, err
		}
		req.Attempts = slugs(specs)
	}
	if req.Export != "" {
		if err := checkWritable(filepath.Dir(req.Export)); err != nil {
			return nil, fmt.Errorf("--export %s: %w", req.Export, err)
		}
	}
	if req.PerEndpoint < 0 || req.PerEndpoint > MaxParallel {
		return nil, fmt.Errorf("per-endpoint %d: want 1 to %d attempts at once", req.PerEndpoint, MaxParallel)
	}
	if !agent.ValidPixelRatio(req.PixelRatio) {
		return nil, fmt.Errorf("pixel ratio %v: want 1 to %d", req.PixelRatio, agent.MaxPixelRatio)
	}
	if req.Evidence, err = agent.ParseEvidenceChoice(string(req.Evidence)); err != nil {
		return nil, err
	}
	switch {
	case req.Naive && req.Policy != nil:
		return nil, fmt.Errorf("a run with the harness off takes no policy of its own")
	case req.Naive:
		req.Policy = harness.Off{}
	case req.Policy == nil:
		p := harness.Policy{}
		if r := model.NewReviewer(model.Config{Models: req.ReviewModels}); r != nil {
			p.Model = r
		}
		req.Policy = p
	}
	suite, labHost, err := onLabHost(req.Task.Suite, req.LabHost)
	if err != nil {
		return nil, err
	}
	guardHost := labHost
	if guardHost == "" {
		guardHost = req.LabHost
	}
	plan := req.Planner
	if plan == nil {
		plan = req.Task.Planner
	}
	r := &runner.Runner{Suite: suite, Spec: req.Task.Spec, Planner: plan, Policy: req.Policy,
		Approver: req.Approver, Launch: req.Launch, Recorder: req.Recorder, Emit: req.Emit, LabHost: labHost,
		Judges: taskJudges(req.Task.Suite), SuiteRun: req.SuiteRun}
	for _, rb := range req.Remote {
		capacity := req.PerEndpoint
		if capacity == 0 {
			capacity = max(req.Parallel, 1)
		}
		r.Endpoints = append(r.Endpoints, runner.Endpoint{Name: rb.String(), Launch: rb.launcher(guardHost), Capacity: capacity})
	}
	if req.Parallel < 0 || req.Parallel > MaxParallel {
		return nil, fmt.Errorf("parallel %d: want 1 to %d attempts at once", req.Parallel, MaxParallel)
	}
	if err := req.Budgets.Validate(); err != nil {
		return nil, fmt.Errorf("run %w", err)
	}
	var budgets agent.Budgets
	if rb, ok := req.Task.Suite.(agent.RunBounded); ok {
		budgets = rb.RunBudgets()
	}
	opts := runner.Options{Attempts: req.Attempts, Repeat: req.Repeat, Override: req.Override, Params: req.Params, Parallel: req.Parallel,
		MediaRoot: req.MediaRoot, Media: req.Media, Live: req.Live,
		Budgets: budgets.Merge(req.Budgets), Sequence: req.Sequence}
	id := req.ID
	if id == "" {
		id = runner.NewRunID(time.Now())
	}
	return &Prepared{ID: id, LabHost: labHost, Specs: specs, Runner: r, Options: opts}, nil
}

// onLabHost is suite with its lab serving the app on host (127.0.0.1 when empty), and the
// host; a suite no lab serves is returned as it is, with no host (a host given then serves
// only the pages' origins guards).
func onLabHost(suite agent.Suite, host string) (agent.Suite, string, error) {
	if host != "" {
		if err := labs.CheckHost(host); err != nil {
			return nil, "", fmt.Errorf("--lab-host: %w", err)
		}
	}
	h, ok := suite.(labs.Hosted)
	switch {
	case !ok:
		return suite, "", nil
	case host == "":
		return suite, labs.DefaultHost, nil
	}
	return h.OnHost(host), host, nil
}

// Shard is the K-th of N shares of a run's attempts (1 <= K <= N): every N-th attempt,
// starting from the K-th, the way Playwright Test splits a suite across machines.
type Shard struct{ K, N int }

// ParseShard reads "K/N".
func ParseShard(s string) (*Shard, error) {
	var sh Shard
	if _, err := fmt.Sscanf(s, "%d/%d", &sh.K, &sh.N); err != nil || fmt.Sprintf("%d/%d", sh.K, sh.N) != s {
		return nil, fmt.Errorf("shard %q: want K/N, such as 1/3", s)
	}
	if sh.N < 1 || sh.K < 1 || sh.K > sh.N {
		return nil, fmt.Errorf("shard %s: want 1 <= K <= N", s)
	}
	return &sh, nil
}

// Of is the shard's share of specs; a shard with no attempt is an error.
func (sh Shard) Of(specs []agent.AttemptSpec) ([]agent.AttemptSpec, error) {
	var out []agent.AttemptSpec
	for i, s := range specs {
		if i%sh.N == sh.K-1 {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("shard %d/%d has no attempts: the run has %d (%w)", sh.K, sh.N, len(specs), agent.ErrNothingSelected)
	}
	return out, nil
}

func slugs(specs []agent.AttemptSpec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Slug
	}
	return out
}

// RemoteBrowser is a browser that runs elsewhere: a Playwright browser server (a ws:// or
// wss:// address) or, with CDP set, a Chromium that speaks the DevTools protocol.
type RemoteBrowser struct {
	URL string
	CDP bool
	// Executable is the Chromium a browser server launches (a path on its machine; it must
	// be started with --unsafe to honour it).
	Executable string
}

// String names the endpoint in messages.
func (rb RemoteBrowser) String() string {
	if rb.CDP {
		return "CDP " + rb.URL
	}
	return "browser server " + rb.URL
}

// launcher connects to the remote browser, whose pages' origins guards listen on guardHost
// (an address of this machine it can reach; empty is 127.0.0.1).
func (rb RemoteBrowser) launcher(guardHost string) runner.Launcher {
	return func(ctx context.Context) (agent.Browser, error) {
		b, err := browser.Connect(ctx, rb.URL, browser.RemoteOptions{CDP: rb.CDP, Executable: rb.Executable, GuardHost: guardHost})
		if err != nil {
			return nil, err // never a nil *Browser inside a non-nil agent.Browser
		}
		return b, nil
	}
}

// checkWritable fails unless a file can be created in dir, so that a run whose result could
// not be saved is refused before it starts.
func checkWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".observatory-check-*")
	if err != nil {
		return fmt.Errorf("cannot write into %s: %w", dir, err)
	}
	return errors.Join(f.Close(), os.Remove(f.Name()))
}
