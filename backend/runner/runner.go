package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sync"
	"time"

	"observatory/backend/agent"
	"observatory/backend/harness"
	"observatory/backend/planner"
)

// Launcher starts a browser. The runner calls it again when a browser dies mid-run.
type Launcher func(ctx context.Context) (agent.Browser, error)

// Options choose what to run and what to record.
type Options struct {
	// Attempts are slugs to run, in order; empty runs every attempt the task offers.
	Attempts []string
	// Repeat runs each attempt this many times, each trial an attempt of its own with a fresh
	// context and copy of the app (see agent.Trials); 0 or 1 runs each once.
	Repeat   int
	Override agent.ConfigOverride
	// Params override the app's parameters (a lab's save latency) for every attempt.
	Params map[string]int
	// Parallel is how many attempts run at once, each in its own browser context with its
	// own copy of the app; 0 or 1 runs them one after another.
	Parallel int
	// MediaRoot is where each run's media folder is made; empty records no media.
	MediaRoot string
	// Media is what each attempt records.
	agent.Media
	// Budgets bound the whole run, its attempts together; exhausting one ends the attempts
	// under way exhausted and starts no more.
	Budgets agent.Budgets
	// Live is how often each running attempt's page is sent as a Screencast progress event
	// (100 ms: ten frames a second); 0 streams nothing.
	Live time.Duration
	// Sequence, when set, decides the attempts one at a time instead of Attempts, for a run
	// whose attempts are not known when it starts (an agent's session).
	Sequence Sequence
}

// Sequence decides a run's attempts one at a time. Next blocks until the next attempt should
// start and returns it, or false when the run has no more (or ctx ended); the attempts it
// returns must have distinct slugs. A run with a sequence runs its attempts one at a time.
type Sequence interface {
	Next(ctx context.Context) (agent.AttemptSpec, bool)
}

// Runner runs a suite's attempts. Planner, Policy, Recorder and Emit may be nil: the suite's
// scripted plan, the harness's policy, no history, nobody watching. Attempts get their
// browser from Endpoints, or, when there are none, from Launch.
type Runner struct {
	Suite agent.Suite
	// Spec is the task document recorded with the run, so its verdicts can be recomputed.
	Spec json.RawMessage
	// Planner returns the planner of one attempt.
	Planner func(spec agent.AttemptSpec) agent.Planner
	Policy  agent.Policy
	// Approver returns who approves one attempt's irreversible actions when its policy asks;
	// nil asks nobody, so they are held.
	Approver  func(spec agent.AttemptSpec) agent.Approver
	Launch    Launcher
	Endpoints []Endpoint
	Recorder  agent.Recorder
	Emit      func(Progress)
	// LabHost is the address the suite's lab serves its app on, recorded with the run; empty
	// when no lab serves it here.
	LabHost string
	// Judges returns the asker of the suite's model judge signal with the given ID (see
	// agent.Consulted); nil, or a nil asker, leaves that signal "could not confirm".
	Judges func(signal string) agent.JudgeAsker
	// SuiteRun is the suite run this run is one task of, recorded with it; empty for none.
	SuiteRun string

	// media finishes the recordings of one Run's attempts (set by Run on its own copy).
	media *mediaSaver
}

// NewRunID returns a sortable, unique run id such as 20261130T051500-3f9a1c.
func NewRunID(now time.Time) string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return now.UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b)
}

// Select resolves slugs to the suite's attempt specs, each repeated repeat times (see
// agent.Trials), in the order given; empty means all. A slug names an attempt, and so all of
// its trials, or one trial ("slug.t2").
func Select(suite agent.Suite, slugs []string, repeat int) ([]agent.AttemptSpec, error) {
	all, err := agent.Trials(suite.Attempts(), repeat)
	if err != nil {
		return nil, err
	}
	if len(slugs) == 0 {
		return all, nil
	}
	bySlug := make(map[string][]agent.AttemptSpec, len(all))
	var known []string
	for _, a := range all {
		base := agent.BaseSlug(a.Slug, a.Trial)
		if len(bySlug[base]) == 0 {
			known = append(known, base)
		}
		bySlug[base] = append(bySlug[base], a)
		if a.Trial > 0 {
			bySlug[a.Slug] = []agent.AttemptSpec{a}
		}
	}
	out := make([]agent.AttemptSpec, 0, len(slugs))
	named := make(map[string]bool, len(slugs))
	for _, s := range slugs {
		as, ok := bySlug[s]
		if !ok {
			return nil, fmt.Errorf("task %q has no attempt %q; it has %v", suite.Task().Name, s, known)
		}
		for _, a := range as {
			if named[a.Slug] {
				return nil, fmt.Errorf("attempt %q is named twice; a run holds each attempt once", a.Slug)
			}
			named[a.Slug] = true
			out = append(out, a)
		}
	}
	return out, nil
}

// Check says what is wrong with a request to run the slugs (empty: all), repeat times each,
// with the override, before anything starts: an unknown or repeated attempt, numbers out of
// range, or a suite that cannot start any attempt (see agent.Preflighted).
func Check(suite agent.Suite, slugs []string, repeat int, override agent.ConfigOverride) ([]agent.AttemptSpec, error) {
	specs, err := Select(suite, slugs, repeat)
	if err != nil {
		return nil, err
	}
	if p, ok := suite.(agent.Preflighted); ok {
		if err := p.Preflight(); err != nil {
			return nil, err
		}
	}
	for _, s := range specs {
		if err := override.Apply(s.Config).Validate(); err != nil {
			return nil, fmt.Errorf("attempt %s: %w", s.Slug, err)
		}
	}
	return specs, nil
}

// Run runs the chosen attempts, up to opts.Parallel at once (one by default), and returns the
// run with its attempts in the order asked, whatever order they finish in. A cancelled
// context ends the attempts under way as cancelled and skips the rest; the run is then
// cancelled too. Errors before the run is recorded (a bad request, no media folder) leave
// nothing behind; after it, the run is always finished with a status, never left running.
func (r *Runner) Run(ctx context.Context, runID string, opts Options) (agent.Run, error) {
	specs, err := Check(r.Suite, opts.Attempts, opts.Repeat, opts.Override)
	if err != nil {
		return agent.Run{}, err
	}
	mediaDir := ""
	if opts.MediaRoot != "" && opts.Files() {
		mediaDir = filepath.Join(opts.MediaRoot, runID)
		if err := os.MkdirAll(mediaDir, 0o755); err != nil {
			return agent.Run{}, fmt.Errorf("making the run's media folder: %w", err)
		}
	}
	r = r.serialized()
	r.media = &mediaSaver{}
	run := agent.Run{ID: runID, Task: r.Suite.Task().Name, Spec: r.Spec, Created: time.Now().UTC(), Status: agent.RunRunning, Source: "live", LabHost: r.LabHost, SuiteRun: r.SuiteRun}
	if !opts.Budgets.IsZero() {
		run.Budgets = &opts.Budgets
	}
	if err := r.record(func(rec agent.Recorder) error { return rec.RunStarted(run) }); err != nil {
		return run, err
	}
	r.emit(Progress{RunID: runID, Kind: RunStarted, Total: len(specs)})

	if opts.Budgets.WallClockMS > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, time.Duration(opts.Budgets.WallClockMS)*time.Millisecond, opts.Budgets.WallClockExhausted(agent.ScopeRun))
		defer cancel()
	}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	rs := &runState{run: &run, opts: opts, browsers: newPool(r.endpoints(opts)), mediaDir: mediaDir, pot: agent.NewRunBudget(opts.Budgets)}
	defer rs.browsers.close()
	var attempts []*agent.Attempt
	if opts.Sequence != nil {
		attempts = r.runSequence(ctx, stop, rs)
	} else {
		attempts = r.runAll(ctx, stop, rs, specs)
	}
	r.media.wait()
	for _, a := range attempts {
		if a != nil {
			run.Attempts = append(run.Attempts, r.media.onto(*a))
		}
	}
	cause := context.Cause(ctx)
	if cause != nil && !errors.Is(cause, context.Canceled) && !errors.Is(cause, agent.ErrExhausted) && !errors.Is(cause, agent.ErrStopped) {
		return run, r.fail(&run, cause)
	}
	status := agent.RunFinished
	if ctx.Err() != nil && !errors.Is(cause, agent.ErrExhausted) {
		status = agent.RunCancelled
	}
	r.finish(&run, status)
	return run, nil
}

// runState is what every attempt of one run shares: the run being recorded, its options, the
// browsers its attempts take turns in, its media folder (empty records no files) and the
// budget its attempts spend together.
type runState struct {
	run      *agent.Run
	opts     Options
	browsers *pool
	mediaDir string
	pot      *agent.RunBudget
}

// attemptRun is one attempt of a run as its phases (start the app, open the page, execute,
// judge) share it: the run's state, the attempt's spec, where it stands among the run's
// attempts (total 0 when not known) and the browser it runs in, then what each phase leaves
// for the next.
type attemptRun struct {
	*runState
	spec            agent.AttemptSpec
	position, total int
	browser         *lease

	// Set by start: the attempt's configuration and planner (driven is the planner when a
	// client drives it, nil otherwise), what it records (the run's media at its trial's
	// evidence level), its record so far, and the app it runs against.
	cfg     agent.Config
	media   agent.Media
	planner agent.Planner
	driven  agent.Driven
	a       agent.Attempt
	env     agent.Environment

	// Set by open and execute: what the page came to, and the last sample taken of it.
	out  agent.Outcome
	last agent.Sample
	// seen counts the app's events already reported; recErr is the first failure to record
	// a step.
	seen   int
	recErr error
}

// runAll runs specs, up to opts.Parallel at once, and returns their attempts in order: nil
// for one that never started.
func (r *Runner) runAll(ctx context.Context, stop context.CancelCauseFunc, rs *runState, specs []agent.AttemptSpec) []*agent.Attempt {
	attempts := make([]*agent.Attempt, len(specs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(max(rs.opts.Parallel, 1), len(specs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				a, err := r.runOne(ctx, rs, specs[i], i, len(specs))
				if err != nil {
					stop(err)
					return
				}
				attempts[i] = a
				if e := rs.pot.Exhausted(); e != nil {
					stop(e) // the attempts under way end exhausted; no more start
				}
			}
		}()
	}
feed:
	for i := range specs {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	return attempts
}

// runSequence runs the attempts opts.Sequence decides, one after another, until it has no
// more or the run is stopped. Their total is not known, so progress gives none.
func (r *Runner) runSequence(ctx context.Context, stop context.CancelCauseFunc, rs *runState) []*agent.Attempt {
	var attempts []*agent.Attempt
	for i := 0; ctx.Err() == nil; i++ {
		spec, ok := rs.opts.Sequence.Next(ctx)
		if !ok {
			break
		}
		if err := rs.opts.Override.Apply(spec.Config).Validate(); err != nil {
			stop(fmt.Errorf("attempt %s: %w", spec.Slug, err))
			break
		}
		a, err := r.runOne(ctx, rs, spec, i, 0)
		if err != nil {
			stop(err)
			break
		}
		attempts = append(attempts, a)
		if e := rs.pot.Exhausted(); e != nil {
			stop(e)
		}
	}
	return attempts
}

// runOne runs one attempt in the pool's browser. It returns nil, nil for an attempt that
// never started because the run was stopped first.
func (r *Runner) runOne(ctx context.Context, rs *runState, spec agent.AttemptSpec, i, total int) (*agent.Attempt, error) {
	if ctx.Err() != nil {
		return nil, nil
	}
	l, err := rs.browsers.acquire(ctx)
	if err != nil {
		if ctx.Err() != nil { // stopped while the browser was starting
			return nil, nil
		}
		return nil, fmt.Errorf("starting the browser: %w", err)
	}
	a, err := r.attempt(ctx, attemptRun{runState: rs, spec: spec, position: i, total: total, browser: l})
	gone := errors.Is(err, errBrowserGone)
	rs.browsers.release(l, gone)
	if gone {
		err = nil
	}
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// endpoints are where the run's attempts get browsers: the runner's endpoints, or Chromium
// launched here, taking every attempt the run has going at once.
func (r *Runner) endpoints(opts Options) []Endpoint {
	if len(r.Endpoints) > 0 {
		return r.Endpoints
	}
	return []Endpoint{{Name: LocalEndpoint, Launch: r.Launch, Capacity: max(opts.Parallel, 1)}}
}

// serialized is a copy of r whose recorder and progress callback are safe for attempts
// running side by side: one call at a time, so no row is lost or interleaved with another's.
func (r *Runner) serialized() *Runner {
	c := *r
	if r.Recorder != nil {
		c.Recorder = &lockedRecorder{next: r.Recorder}
	}
	if emit := r.Emit; emit != nil {
		var mu sync.Mutex
		c.Emit = func(p Progress) {
			mu.Lock()
			defer mu.Unlock()
			emit(p)
		}
	}
	return &c
}

// fail reports err, then ends the run as interrupted, in that order, so whoever treats the
// end as the last word has already heard why. It returns err.
func (r *Runner) fail(run *agent.Run, err error) error {
	r.emit(Progress{RunID: run.ID, Kind: Error, Message: err.Error()})
	r.finish(run, agent.RunInterrupted)
	return err
}

func (r *Runner) finish(run *agent.Run, status agent.RunStatus) {
	run.Status = status
	if err := r.record(func(rec agent.Recorder) error { return rec.RunFinished(run.ID, status) }); err != nil {
		r.emit(Progress{RunID: run.ID, Kind: Error, Message: err.Error()})
	}
	r.emit(Progress{RunID: run.ID, Kind: RunFinished, Status: status})
}

// attempt runs one attempt from a fresh environment to its judged, recorded end, phase by
// phase. Only a failure of the recorder, the app or the judge is returned as an error;
// anything the browser or the page does wrong becomes the attempt's terminal state.
func (r *Runner) attempt(ctx context.Context, at attemptRun) (agent.Attempt, error) {
	if err := r.start(ctx, &at); err != nil {
		return at.a, err
	}
	defer at.env.Close()
	if page := r.open(ctx, &at); page != nil {
		finish := r.execute(ctx, &at, page)
		defer r.media.save(at.run.ID, at.spec.Slug, finish, r.emit, r.record)
	}
	return r.judge(ctx, &at)
}

// start records the attempt as started, with its configuration and plan, and starts the
// app it runs against.
func (r *Runner) start(ctx context.Context, at *attemptRun) error {
	run, opts := at.run, at.opts
	at.cfg = opts.Override.Apply(at.spec.Config)
	at.media = opts.Media.ForTrial(at.spec.Trial)
	at.spec.Params = withParams(at.spec.Params, opts.Params)
	spec := at.spec
	at.planner = r.planner(spec)
	at.driven, _ = at.planner.(agent.Driven)
	at.a = agent.Attempt{Slug: spec.Slug, Title: spec.Title, Trial: spec.Trial, Task: r.Suite.Task(), Config: at.cfg,
		Fault: spec.Fault, Params: spec.Params, Started: time.Now().UTC()}
	if at.driven == nil {
		at.a.Plan = planOf(r.Suite, spec)
	}
	if err := r.record(func(rec agent.Recorder) error { return rec.AttemptStarted(run.ID, at.position, at.a) }); err != nil {
		return err
	}
	r.emit(Progress{RunID: run.ID, Kind: AttemptStarted, Slug: spec.Slug, Index: at.position + 1, Total: at.total,
		Endpoint: at.browser.endpoint.Name})
	env, err := r.Suite.Start(ctx, spec)
	if err != nil {
		return fmt.Errorf("starting the app of %s for %s: %w", r.Suite.Task().Name, spec.Slug, err)
	}
	at.env = env
	return nil
}

// open opens the attempt's page in its browser, confined to what the app allows (its
// origins, a signed-in session, folders, link-local hosts); nil when it cannot, with the
// attempt's outcome saying why.
func (r *Runner) open(ctx context.Context, at *attemptRun) agent.Page {
	env := at.env
	pageOpts := agent.PageOptions{MediaDir: at.mediaDir, Name: at.spec.Slug, Media: at.media, Origins: env.Origins(),
		Authority: at.a.Task.Authority, Notices: at.a.Task.Notices}
	if s, ok := env.(agent.SignedIn); ok {
		pageOpts.StorageState = s.StorageState()
	}
	if f, ok := env.(agent.Folders); ok {
		pageOpts.Uploads, pageOpts.Downloads = f.Uploads(), f.Downloads()
	}
	if l, ok := env.(agent.LinkLocalReach); ok {
		pageOpts.LinkLocal = l.AllowsLinkLocal()
	}
	page, err := at.browser.newPage(ctx, pageOpts)
	if err != nil {
		at.out = agent.Outcome{Terminal: agent.Failed, Reason: "could not open a browser page: " + err.Error(), Err: err,
			BrowserLog: agent.BrowserLogOf(err)}
		if ctx.Err() != nil {
			at.out.Terminal = agent.Cancelled
		}
		return nil
	}
	return page
}

// execute runs the attempt's plan on page under the harness, recording and reporting each
// step and check as it happens, then cuts the page off at once, aborting whatever the app
// still has in flight: a cancelled or abandoned save must not commit later. It returns what
// finishes the page's recording, which the caller runs once the attempt is judged and
// recorded, off its path: nothing judged depends on it.
func (r *Runner) execute(ctx context.Context, at *attemptRun, page agent.Page) (finish func() (agent.Recording, error)) {
	exec := &agent.Executor{Policy: r.policy()}
	if r.Approver != nil {
		exec.Approver = r.Approver(at.spec)
	}
	if sized, ok := page.(agent.Sized); ok {
		vp := sized.Viewport()
		at.a.Viewport = &vp
	}
	if at.media.Lean() {
		at.a.EvidenceLevel = agent.EvidenceLean
	}
	stopLive := r.watch(ctx, at.run.ID, at.spec.Slug, page, at.opts.Live)
	if at.driven != nil {
		at.driven.Bind(page)
	}
	at.out = exec.Run(ctx, page, agent.Job{Env: at.env, Planner: at.planner, Config: at.cfg, Run: at.pot,
		Intent: r.Suite.Task().Intent, Authority: at.a.Task.Authority}, r.hooks(at))
	stopLive()
	at.a.Claim = claimOf(at.planner, at.env)
	if len(at.out.Steps) == 0 { // ended before its first step: judge the page it loaded
		at.last = at.out.Seen
	}
	return detach(page)
}

// hooks record and report each step of the attempt, with the app's events since the one
// before, and report each check of the gate.
func (r *Runner) hooks(at *attemptRun) agent.Hooks {
	runID, slug, index := at.run.ID, at.spec.Slug, at.position+1
	return agent.Hooks{
		Step: func(s agent.Step) {
			at.last = s.After
			evs := at.newEvents()
			if err := r.record(func(rec agent.Recorder) error { return rec.StepRecorded(runID, slug, s, evs) }); err != nil && at.recErr == nil {
				at.recErr = err
			}
			r.emit(Progress{RunID: runID, Kind: StepDone, Slug: slug, Index: index, Total: at.total, Step: &s, Events: evs})
			if s.After.Screenshot != "" {
				r.emit(Progress{RunID: runID, Kind: Frame, Slug: slug, Frame: s.After.Screenshot})
			}
		},
		Check: func(c agent.Check) {
			r.emit(Progress{RunID: runID, Kind: CheckDone, Slug: slug, Check: &c, Events: at.newEvents()})
		},
	}
}

// newEvents are the app's events not yet reported.
func (at *attemptRun) newEvents() []agent.Event {
	all := at.env.Events()
	fresh := all[min(at.seen, len(all)):]
	at.seen = len(all)
	return fresh
}

// judge waits for the app to settle, gathers the attempt's evidence (its steps, the app's
// events, the oracle's and the judges' answers), judges it, and records and reports the
// attempt's end. It returns errBrowserGone when the attempt's browser died, so the next
// attempt gets a new one.
func (r *Runner) judge(ctx context.Context, at *attemptRun) (agent.Attempt, error) {
	a, env, out, spec := &at.a, at.env, at.out, at.spec
	if at.recErr != nil {
		return *a, at.recErr
	}
	settle, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := env.Quiesce(settle); err != nil {
		return *a, fmt.Errorf("the app of %s did not settle after %s: %w", r.Suite.Task().Name, spec.Slug, err)
	}
	last := at.last
	lastSample := func(context.Context) (agent.Sample, error) { return last, nil }
	a.Steps, a.ModelTurns, a.Events, a.Answers = out.Steps, out.Turns, env.Events(), env.Answers(settle, lastSample)
	a.Answers = append(a.Answers, r.askJudges(ctx, a, at.mediaDir, at.pot)...)
	var err error
	if a.Verdicts, err = agent.Judged(r.Suite, a.Evidence()); err != nil {
		return *a, fmt.Errorf("judging %s: %w", spec.Slug, err)
	}
	a.Terminal, a.Reason = agent.Reconcile(out, a.Verdicts)
	a.BrowserLog, a.Opening = out.BrowserLog, out.Opening
	if err := r.record(func(rec agent.Recorder) error { return rec.AttemptFinished(at.run.ID, *a) }); err != nil {
		return *a, err
	}
	r.emit(Progress{RunID: at.run.ID, Kind: AttemptFinished, Slug: spec.Slug, Index: at.position + 1, Total: at.total,
		Attempt: a, Events: at.newEvents(), Endpoint: at.browser.endpoint.Name})
	if at.driven != nil {
		at.driven.Ended(*a)
	}
	if errors.Is(out.Err, agent.ErrBrowserGone) {
		return *a, errBrowserGone
	}
	return *a, nil
}

// claimOf is what the agent behind planner claimed of its attempt, bounded and with the
// environment's secrets masked; nil when the planner makes no claim.
func claimOf(planner agent.Planner, env agent.Environment) *agent.Claim {
	c, ok := planner.(agent.Claimant)
	if !ok {
		return nil
	}
	claim := c.Claim()
	if claim == nil {
		return nil
	}
	var secrets []string
	if s, ok := env.(agent.Secretive); ok {
		secrets = s.Secrets()
	}
	bounded := claim.Bounded(secrets)
	return &bounded
}

// withParams is params with override's entries in place; nil when both are empty.
func withParams(params, override map[string]int) map[string]int {
	if len(params) == 0 && len(override) == 0 {
		return nil
	}
	out := maps.Clone(params)
	if out == nil {
		out = map[string]int{}
	}
	maps.Copy(out, override)
	return out
}

func (r *Runner) planner(spec agent.AttemptSpec) agent.Planner {
	if r.Planner != nil {
		return r.Planner(spec)
	}
	return planner.Scripted(planOf(r.Suite, spec))
}

// planOf is the attempt's own plan, or else the suite's.
func planOf(suite agent.Suite, spec agent.AttemptSpec) agent.Plan {
	if len(spec.Plan) > 0 {
		return spec.Plan
	}
	return suite.Plan()
}

func (r *Runner) policy() agent.Policy {
	if r.Policy != nil {
		return r.Policy
	}
	return harness.Policy{}
}

// gone reports whether b knows it has died (see agent.Lifeline), so the next attempt needs a
// new browser.
func gone(b agent.Browser) bool {
	l, ok := b.(agent.Lifeline)
	return ok && l.GoneErr() != nil
}

// errBrowserGone tells Run that the attempt was recorded but its browser died, so the next
// attempt needs a new one.
var errBrowserGone = fmt.Errorf("attempt ended with %w", agent.ErrBrowserGone)

func (r *Runner) record(f func(agent.Recorder) error) error {
	if r.Recorder == nil {
		return nil
	}
	if err := f(r.Recorder); err != nil {
		return fmt.Errorf("recording the run: %w", err)
	}
	return nil
}

func (r *Runner) emit(p Progress) {
	if r.Emit != nil {
		r.Emit(p)
	}
}
