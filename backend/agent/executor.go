package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Hooks let a caller watch an attempt as it runs. Nil hooks are skipped.
type Hooks struct {
	// Step is called after every step, including one that ended the attempt.
	Step func(Step)
	// Check is called for every gate evaluation while waiting.
	Check func(Check)
}

// Executor carries out what a planner proposes on a page, one admitted action at a time,
// sampling the page before and after every action, and waits on conditions rather than a
// clock (unless the wait policy says otherwise).
type Executor struct {
	Policy Policy
	// Approver is asked before an action whose decision says AskUser; nil holds them all.
	Approver Approver
	// Now and Sleep default to the real clock; tests inject their own.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// Schedule runs check after d and delivers its result, then closes the channel; if ctx
	// ends first it only closes it. The default runs a timer on its own goroutine, so that a fixed wait
	// checks exactly d after the commit acted however long recording the page takes in the
	// meantime: recording must not change what it records. Tests inject their own.
	Schedule func(ctx context.Context, d time.Duration, check func() Check) <-chan Check
}

// Outcome is what the executor saw: the steps and the terminal state it reached. The caller
// reconciles it with the app's final state once the page is closed (see Reconcile).
type Outcome struct {
	Steps    []Step
	Terminal Terminal
	Reason   string
	// Err is the error that ended the attempt, if one did (errors.Is works on it).
	Err error
	// Turns are a model planner's turns that led to no step: those of the planning that ended
	// the attempt (its corrections, its waits, the turn naming why it ended).
	Turns []ModelTurn
	// BrowserLog is what the browser logged around the first browser error of the attempt
	// (see BrowserLogOf), secrets masked.
	BrowserLog string
	// Seen is the latest observation taken for the record, secrets masked: the page as the
	// attempt last saw it, even when it ended before its first step.
	Seen Sample
	// Opening is what the pages sent before an outside agent's first input (see
	// Attempt.Opening).
	Opening *Traffic
}

// Job is one attempt's inputs: where it runs, who plans it and the policies it runs with.
type Job struct {
	Env     Environment
	Planner Planner
	Config  Config
	// Run is the run's budgets, shared by its attempts; nil bounds nothing.
	Run *RunBudget
	// Intent is the user's request word for word; policy weighs what an action sends
	// against it, never against what the page says.
	Intent string
	// Authority is the task's; its freshness limit makes a commit re-take an observation
	// that has grown too old. Nil for none.
	Authority *Authority
}

// Run executes job on page. It never returns without a terminal state. A page that is a
// Lifeline ends the attempt the moment it dies, whatever the attempt is waiting on.
func (x *Executor) Run(ctx context.Context, page Page, job Job, hooks Hooks) Outcome {
	if b := job.Config.Budgets; b != nil && b.WallClockMS > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeoutCause(ctx, ms(b.WallClockMS), b.WallClockExhausted(ScopeAttempt))
		defer stop()
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	life, _ := page.(Lifeline)
	if life != nil {
		go func() {
			select {
			case <-life.Gone():
				cancel(life.GoneErr())
			case <-ctx.Done():
			}
		}()
	}
	start := x.now()
	r := &run{x: x, ctx: ctx, page: page, life: life, env: job.Env, planner: job.Planner, cfg: job.Config, pot: job.Run, intent: job.Intent, authority: job.Authority, hooks: hooks, start: start, acted: start}
	if s, ok := job.Env.(Secretive); ok {
		r.keepSecret(s.Secrets()...)
	}
	return r.execute()
}

type run struct {
	x *Executor
	// ctx ends when the caller cancels or the page dies; its cause tells which.
	ctx  context.Context
	page Page
	// life is the page as a Lifeline; nil when it is not one.
	life    Lifeline
	env     Environment
	planner Planner
	cfg     Config
	intent  string
	// authority is the task's declaration of principal, relevant text and freshness.
	authority *Authority
	// seen is the latest observation taken for the record; observed counts them.
	seen     Sample
	observed int
	hooks    Hooks
	start    time.Time
	steps    []Step
	err      error // the error that ended the attempt
	// turns are the planner's turns that led to no step (see Outcome.Turns).
	turns []ModelTurn
	// browserLog is the log the first failing browser call carried (see BrowserLogOf).
	browserLog string
	// secrets are the task's declared secret values and those typed by secret actions; no
	// recorded sample or traffic shows them.
	secrets []string
	// acted is when the latest action finished acting; a fixed wait counts from there, so
	// the cost of sampling the page does not lengthen it.
	acted time.Time
	// settled is set when the app itself ended the wait (a refusal, a notice for a save that
	// fails the gate): nothing is left in flight to stop.
	settled bool
	// committed is set once a commit has acted: only then can something be in flight.
	committed bool
	// stopped is set once the page's pending work has been aborted; stopOnce guards it.
	stopped  atomic.Bool
	stopOnce sync.Once
	// fixedCheck delivers the fixed wait's check, scheduled when the action before verify
	// acted; cancelFixed abandons it.
	fixedCheck  <-chan Check
	cancelFixed context.CancelFunc
	// queue holds proposals that run ahead of the planner's (a retry and its verify), and
	// retries counts the retries made.
	queue   []Proposal
	retries int
	// pot is the run's budgets, spent holds what this attempt has spent of its own.
	pot   *RunBudget
	spent Spend
	// holds are the answers about requests held at the network (see holdRequests).
	holds holds
	// opening is the traffic before an outside agent's first input, once cut (see
	// observedStep).
	opening *Traffic
}

func (r *run) execute() Outcome {
	if err := r.holdRequests(); err != nil {
		return r.end(Failed, err.Error())
	}
	if err := r.page.Goto(r.ctx, r.env.StartURL()); err != nil {
		t, err := r.fail(err, ClassPrepare)
		return r.end(t, "the app did not load: "+err.Error())
	}
	grounding, err := r.observe()
	if err != nil {
		t, err := r.fail(err, ClassObserve)
		return r.end(t, "the first observation failed: "+err.Error())
	}
	if c := r.check(); c.Gate.Done { // the baseline: what holds before anything is done
		_, _ = r.observe() // the page as the gate held on it, for the final judgement (Seen)
		r.err = ErrHeldAtStart
		return r.end(Ambiguous, ErrHeldAtStart.Error()+", so it cannot tell this attempt's effect; nothing was done "+
			"(reset the site's state between attempts, or make the conditions name what each attempt alone creates)")
	}
	for i := 0; ; i++ {
		if r.ctx.Err() != nil {
			return r.end(r.interrupted(fmt.Sprintf("before step %d", i+1)))
		}
		if len(r.queue) == 0 {
			if e := r.mayPlan(); e != nil {
				r.err = e
				return r.end(Exhausted, fmt.Sprintf("step %d not planned: %v", i+1, e))
			}
		}
		p, err := r.next(grounding)
		if err == nil {
			if e := r.charge(TurnSpend(p.Turns)); e != nil {
				r.err = e
				return r.end(Exhausted, fmt.Sprintf("step %d (%s) not run: %v", i+1, p.Action.Description, e))
			}
		}
		if err != nil {
			// What the planner spent on the way is spent, and its turns are the record of why
			// planning ended; the attempt ends here whatever the budgets say.
			r.turns = p.Turns
			_ = r.charge(TurnSpend(p.Turns))
			r.agentLeft(i, grounding)
			t, err := r.fail(r.mayHaveCommitted(err))
			if errors.Is(err, ErrExhausted) && t != Cancelled {
				t = Exhausted
			}
			return r.end(t, r.unplanned(i, err))
		}
		if p.End {
			r.agentLeft(i, grounding)
			break
		}
		var step Step
		var term Terminal
		var reason string
		if p.Observed != nil {
			step, term, reason = r.observedStep(i, *p.Observed, grounding)
		} else {
			step, term, reason = r.step(i, p, grounding)
		}
		if term == Ambiguous && r.settled && step.Action.Kind == ActVerify {
			term, reason = r.settleAmbiguous(&step, reason)
		}
		if g, ok := r.x.Policy.(Guide); ok {
			step.Guidance = g.Guidance(r.steps, step)
		}
		step = step.masked(r.secrets)
		r.steps = append(r.steps, step)
		r.holds.stepRecorded(len(r.steps))
		if r.hooks.Step != nil {
			r.hooks.Step(step)
		}
		if term != "" {
			return r.end(term, reason)
		}
		grounding = step.After
	}
	ended := "the plan ended"
	if _, ok := r.planner.(Unseen); ok {
		ended = "the agent ended" // it proposed nothing: there was no plan
	}
	if c := r.check(); c.Gate.Done {
		if why := r.unseenChange(); why != "" {
			r.err = ErrUnseenChange
			return r.end(Ambiguous, why)
		}
		return r.end(Completed, ended+" and every completion condition holds")
	}
	return r.end(Failed, ended+" without the completion gate holding")
}

// unplanned is why the attempt ended when its planner returned err for step i. An outside
// agent (Unseen) proposes nothing, so its own error says what ended it ("the agent process
// exited with status 1: ..."), never a planner's words.
func (r *run) unplanned(i int, err error) string {
	if _, ok := r.planner.(Unseen); ok {
		return err.Error()
	}
	return fmt.Sprintf("the planner could not propose step %d: %v", i+1, err)
}

// step runs one action. A non-empty terminal ends the attempt.
func (r *run) step(i int, p Proposal, grounding Sample) (s Step, term Terminal, reason string) {
	a := p.Action
	s = Step{Index: i, Action: a.Redacted(), Reason: p.Reason, ModelTurns: p.Turns, StartMS: r.sinceStart()}
	t0 := r.x.now()
	defer func() { s.DurationMS = r.x.now().Sub(t0).Milliseconds() }()
	if g, ok := r.page.(Grouper); ok {
		// The recording's grouping: an error there is no evidence about the attempt.
		_ = g.Group(r.ctx, fmt.Sprintf("Step %d: %s", i+1, a.Description))
		defer func() { _ = g.EndGroup(r.ctx) }()
	}

	// Verify touches nothing, so the observation just taken is its before sample; every
	// other action is re-observed immediately before it runs. A step with a timeout of its
	// own first waits up to it for its target to be shown (a slow editor, a late banner): it
	// was written for the page as it is once its target shows, and is decided on that page.
	before := grounding
	waits := a.TimeoutMS > 0 && a.Kind != ActWaitFor && !a.Target.IsZero()
	if waits {
		// What the wait found (nothing, several, a page gone) resolving the target says next.
		_ = r.page.Act(r.ctx, Action{Kind: ActWaitFor, Target: a.Target, TimeoutMS: a.TimeoutMS})
	}
	if a.Kind != ActVerify {
		var err error
		if before, err = r.observe(); err != nil {
			term, err = r.fail(err, ClassObserve)
			s.Error = err.Error()
			return s, term, fmt.Sprintf("step %d (%s): observing the page failed: %v", i+1, a.Description, err)
		}
	}
	if waits {
		grounding = before
	}
	s.Before, s.After = before, before
	s.Decision = r.decide(PolicyRequest{Action: a, Grounding: grounding, Fresh: before, Spent: i, Budget: r.cfg.Budget,
		History: r.steps, Safeguards: r.cfg.Safeguards, Intent: r.intent})
	switch s.Decision.Admission {
	case Deny:
		s.Error = s.Decision.Reason
		return s, Exhausted, fmt.Sprintf("step %d (%s) not run: %s", i+1, a.Description, s.Decision.Reason)
	case Hold:
		s.Error = s.Decision.Reason
		if r.lean() { // a held step is pictured as it was held
			if held, err := r.observeFramed(); err == nil {
				s.After = held
			}
		}
		if rp, ok := r.planner.(Replanner); (ok && rp.Replans()) || s.Decision.Continue {
			return s, "", ""
		}
		return s, Rejected, fmt.Sprintf("step %d (%s) held: %s", i+1, a.Description, s.Decision.Reason)
	}
	if e := r.charge(StepSpend(a, s.Decision)); e != nil {
		r.err = e
		s.Error = e.Error()
		return s, Exhausted, fmt.Sprintf("step %d (%s) not run: %v", i+1, a.Description, e)
	}

	if a.Kind == ActVerify {
		term, reason = r.wait()
		if term != Completed && r.gone() != nil && !r.cancelled() {
			// A check the page's death cut short is no evidence either way.
			term, reason = r.interrupted("while waiting on the completion gate")
		}
		if term != Completed && !r.settled && r.committed {
			// Give up at once: a save still in flight must not land after the decision.
			r.stop()
		}
	} else if a.Kind == ActWaitFor && a.Condition != "" {
		term, reason = r.waitCondition(&s, a)
	} else {
		term, reason = r.act(&s, a)
		term, reason = r.goOn(&s, term, reason)
	}
	if w, ok := r.page.(Settler); ok && term != "" {
		// The attempt's last look at the page waits for the page's answers: a gate that
		// holds as soon as the record changed must not leave the page judged mid-save.
		w.Settle(r.ctx)
	}
	observe := r.observe
	if term != "" || s.Error != "" {
		observe = r.observeFramed
	}
	after, err := observe()
	// What the page sent and refused is cut after the last look at it, so that a request
	// ending while the result is observed belongs to this step, not the next.
	s.Blocked, s.Transfers = r.page.Blocked(), r.page.Transfers()
	if w, ok := r.page.(Watcher); ok {
		s.Traffic = w.Traffic(r.start, term != "").Redact(r.secrets)
	}
	if err == nil && term == "" && s.Error == "" && r.lean() && slices.ContainsFunc(s.Traffic.Requests, Request.Failed) {
		// A request that went wrong makes the step one to picture, as a failed step is.
		after, err = r.observeFramed()
	}
	if err != nil {
		s.Error = err.Error()
		if term == "" || term == Completed {
			term, err = r.fail(err, s.Decision.Class)
			s.Error, reason = err.Error(), fmt.Sprintf("step %d (%s): observing the result failed: %v", i+1, a.Description, err)
		}
		return s, term, reason
	}
	s.After = after
	s.Distance = JaccardDistance(s.Before.Pairs, s.After.Pairs)
	return s, term, reason
}

// act resolves the step's target and carries the action out. A wait_for's target is not
// resolved first: waiting for it to appear is the action.
func (r *run) act(s *Step, a Action) (Terminal, string) {
	planned := a
	name, err := a.Target, error(nil)
	if a.Kind != ActWaitFor {
		name, err = r.resolve(a.Target)
	}
	if err != nil {
		if miss := (*MissError)(nil); errors.As(err, &miss) {
			s.Candidates = miss.Candidates
		}
		if a.Optional && errors.Is(err, ErrNoTarget) {
			// What may not be there is not there: the step is skipped and the plan goes on.
			s.Unresolved = true
			return "", ""
		}
		if rp, ok := r.planner.(Replanner); ok && rp.Replans() && (errors.Is(err, ErrAmbiguousTarget) || errors.Is(err, ErrNoTarget)) {
			// Nothing ran: a planner that re-plans is told and names its target again.
			s.Error, s.Unresolved = err.Error(), true
			return "", ""
		}
		if errors.Is(err, ErrAmbiguousTarget) {
			s.Error = err.Error()
			return Rejected, fmt.Sprintf("step %d (%s): %v; the executor never picks the first", s.Index+1, a.Description, err)
		}
		t, err := r.fail(err, ClassObserve)
		s.Error = err.Error()
		return t, fmt.Sprintf("step %d (%s): %v", s.Index+1, a.Description, err)
	}
	if !name.IsZero() {
		s.Resolved = name.TextOf()
		a.Target = name
	}
	if s.Decision.AskUser {
		if term, reason := r.approve(s, a); term != "" {
			return term, reason
		}
	}
	if s.Decision.Class.Commits() {
		if held, term, reason := r.recheck(s, planned, a, s.Decision.AskUser); held {
			return term, reason
		}
	}
	if a.Secret {
		r.keepSecret(a.Value)
		if !a.Target.IsZero() {
			r.page.Mask(a.Target)
		}
	}
	if a.Kind != ActWaitFor { // a wait_for's target is measured once it is there
		s.TargetBox = r.measure(a.Target)
	}
	if a.Kind == ActEvaluate {
		err = r.evaluate(s, a)
	} else {
		err = r.page.Act(r.ctx, a)
	}
	if a.Kind == ActWaitFor && err == nil {
		s.TargetBox = r.measure(a.Target)
	}
	r.acted = r.x.now()
	r.committed = r.committed || s.Decision.Class.Commits()
	if r.cfg.Wait == WaitFixed && r.verifiedNext(s.Index+1) {
		r.scheduleFixedCheck()
	}
	if err != nil {
		if miss := (*MissError)(nil); errors.As(err, &miss) {
			s.Candidates = miss.Candidates
		}
		t, err := r.fail(err, s.Decision.Class)
		s.Error = err.Error()
		return t, fmt.Sprintf("step %d (%s): %v", s.Index+1, a.Description, err)
	}
	return "", ""
}

// evaluate runs an agent's script on the page, keeping its result as the step's output.
func (r *run) evaluate(s *Step, a Action) error {
	ev, ok := r.page.(Evaluator)
	if !ok {
		return fmt.Errorf("%w: this browser cannot run an agent's script", ErrRefused)
	}
	out, err := ev.Evaluate(r.ctx, a)
	if len(out) > MaxOutput {
		out = strings.ToValidUTF8(out[:MaxOutput], "") + "…"
	}
	s.Output = maskSecrets(out, r.secrets)
	return err
}

// goOn keeps the attempt going after an action that failed or was refused (a timeout, a
// navigation error, a denied approval, an ambiguous target) when its planner's agent takes
// errors as answers (ErrorTaker): the step records why and the agent acts next. A stop, the
// time limit, a budget and the page's death still end the attempt.
func (r *run) goOn(s *Step, term Terminal, reason string) (Terminal, string) {
	et, ok := r.planner.(ErrorTaker)
	if term == "" || !ok || !et.TakesErrors() || term == Exhausted || term == Cancelled || r.cancelled() ||
		r.gone() != nil || errors.Is(r.err, ErrBrowserGone) {
		return term, reason
	}
	if s.Error == "" {
		s.Error = reason
	}
	r.err = nil
	return "", ""
}

// measure is where the element t names is now, for the record; nil for no target, or a page
// that cannot measure. A failed measurement is no reason to stop: the action then says what
// is wrong with the element.
func (r *run) measure(t Target) *Box {
	m, ok := r.page.(Measurer)
	if !ok || t.IsZero() {
		return nil
	}
	box, err := m.Measure(r.ctx, t)
	if err != nil {
		return nil
	}
	return &box
}

// resolve finds exactly one element for t under the selector policy and returns the target
// that matched it (t, or t with its alias), or the zero Target for an action without one.
func (r *run) resolve(t Target) (Target, error) {
	if t.IsZero() {
		return Target{}, nil
	}
	err := r.page.Resolve(r.ctx, t)
	if err == nil {
		return t, nil
	}
	if !errors.Is(err, ErrNoTarget) || r.cfg.Selectors != SelectAlias || t.Alias == "" {
		return Target{}, fmt.Errorf("%s: %w", t, err)
	}
	alt := t.WithAlias()
	if aerr := r.page.Resolve(r.ctx, alt); aerr != nil {
		return Target{}, fmt.Errorf("%s and its alias %q: %w", t, t.Alias, aerr)
	}
	return alt, nil
}

// decide asks policy about a proposal. A policy that cannot decide holds the action, and an
// action that needs approval is held when the page would refuse it (Preflighter), so nobody
// is asked to approve what could never run. What
// its review cost is spent, as a planner's turns are: tokens and money are spent before
// anyone can refuse them, so the budgets stop the next planning, not this action.
func (r *run) decide(req PolicyRequest) Decision {
	d, err := r.x.Policy.Decide(r.ctx, req)
	_ = r.charge(ReviewSpend(d))
	if err != nil {
		return Decision{Class: d.Class, Admission: Hold, Reason: "policy could not decide, so the action is held: " + err.Error()}
	}
	if pf, ok := r.page.(Preflighter); ok && d.Admission == Allow && d.AskUser {
		if err := pf.Preflight(req.Action); err != nil {
			d.Admission, d.AskUser, d.RefusedByPage = Hold, false, err.Error()
			d.Reason += "; but the page refuses it, so nobody is asked: " + err.Error()
		}
	}
	return d
}

// wait applies the wait policy and turns what the gate says into a terminal state.
func (r *run) wait() (Terminal, string) {
	if r.cfg.Wait == WaitFixed {
		c, ok := r.fixedWait()
		if !ok {
			return r.interrupted("while waiting")
		}
		if c.Gate.Done {
			return Completed, fmt.Sprintf("every completion condition held after a fixed %d ms wait", r.cfg.FixedWaitMS)
		}
		return Failed, fmt.Sprintf("checked once after a fixed %d ms wait and the gate did not hold: %s", r.cfg.FixedWaitMS, unmet(c.Gate))
	}
	deadline := r.x.now().Add(r.cfg.Deadline())
	for {
		c := r.check()
		switch {
		case c.Gate.Done:
			return Completed, "every completion condition holds"
		case c.Settled != "":
			r.settled = true
			return c.Settled, c.SettledReason
		case c.Unanswerable != "":
			return Failed, "the gate cannot hold, so waiting stopped: " + c.Unanswerable
		case !r.x.now().Before(deadline):
			return Failed, fmt.Sprintf("the %d ms deadline passed before the gate held: %s", r.cfg.DeadlineMS, unmet(c.Gate))
		}
		if err := r.sleep(r.cfg.Poll()); err != nil {
			return r.interrupted("while waiting on the completion gate")
		}
	}
}

// conditionWaitMS is how long a wait_for waits for its condition without a timeout of its
// own: as long as the browser waits for a target.
const conditionWaitMS = 5000

// waitCondition polls the gate, as verify does, until the condition a names holds, up to the
// action's timeout. In vain, the step fails saying what the condition last answered.
func (r *run) waitCondition(s *Step, a Action) (Terminal, string) {
	ms := a.TimeoutMS
	if ms == 0 {
		ms = conditionWaitMS
	}
	deadline := r.x.now().Add(time.Duration(ms) * time.Millisecond)
	for {
		c := r.check()
		i := slices.IndexFunc(c.Gate.Conditions, func(g Condition) bool { return g.ID == a.Condition })
		switch {
		case i < 0:
			s.Error = fmt.Sprintf("the gate has no condition %q", a.Condition)
		case c.Gate.Conditions[i].Done:
			return "", ""
		case !r.x.now().Before(deadline):
			v := c.Gate.Conditions[i].Verdict
			last := v.Evidence
			if v.Unconfirmed != "" {
				last = "could not confirm: " + v.Unconfirmed
			}
			s.Error = fmt.Sprintf("waited %d ms for %s to hold; it last said: %s", ms, a.Condition, last)
		}
		if s.Error != "" {
			return Failed, fmt.Sprintf("step %d (%s): %s", s.Index+1, a.Description, s.Error)
		}
		if err := r.sleep(r.cfg.Poll()); err != nil {
			return r.interrupted("while waiting for " + a.Condition)
		}
	}
}

// verifiedNext reports whether the planner's proposal after done steps is known now to be the
// verify step, whose fixed wait then counts from the action just taken. Only a scripted plan
// knows; a planner that decides as it goes has its fixed wait counted from its verify.
func (r *run) verifiedNext(done int) bool {
	la, ok := r.planner.(Lookahead)
	if !ok {
		return false
	}
	p, ok := la.Upcoming(done)
	return ok && !p.End && p.Action.Kind == ActVerify
}

// scheduleFixedCheck schedules the fixed wait's check FixedWait from now: the action that
// just ran is the one the verify step waits on. The check decides the attempt, so when the
// gate does not hold it stops the page's pending work at that very moment, even if the
// executor is still busy recording the page.
func (r *run) scheduleFixedCheck() {
	r.abandonFixedCheck()
	ctx, cancel := context.WithCancel(r.ctx)
	r.cancelFixed = cancel
	r.fixedCheck = r.x.schedule(ctx, r.cfg.FixedWait(), func() Check {
		c := r.env.Check(ctx, r.observePlain)
		if !c.Gate.Done {
			r.stop()
		}
		return c
	})
}

func (r *run) abandonFixedCheck() {
	if r.cancelFixed != nil {
		r.cancelFixed()
	}
}

// fixedWait delivers the check taken FixedWait after the latest commit acted, or, when no
// commit scheduled one, sleeps out the rest of the wait and checks then.
func (r *run) fixedWait() (Check, bool) {
	if r.fixedCheck == nil {
		if err := r.sleep(r.acted.Add(r.cfg.FixedWait()).Sub(r.x.now())); err != nil {
			return Check{}, false
		}
		return r.check(), true
	}
	c, ok := <-r.fixedCheck
	if ok && r.hooks.Check != nil {
		r.hooks.Check(c)
	}
	return c, ok
}

func (r *run) check() Check {
	c := r.env.Check(r.ctx, r.observePlain)
	if r.hooks.Check != nil {
		r.hooks.Check(c)
	}
	return c
}

// keepSecret adds values to the secrets every record masks, and tells a page that writes
// files of its own.
func (r *run) keepSecret(values ...string) {
	r.secrets = append(r.secrets, values...)
	if k, ok := r.page.(SecretKeeper); ok {
		k.KeepSecret(values...)
	}
}

// observe samples the page for the record: timed from the attempt's start, secrets masked.
func (r *run) observe() (Sample, error) { return r.look(r.page.Observe) }

// observeFramed is observe with the page's screenshot even at lean evidence (see Framer):
// for a step where something went wrong and for the last look. At full evidence every
// observation is framed already.
func (r *run) observeFramed() (Sample, error) {
	if f, ok := r.page.(Framer); ok && !f.KeepsFrames() {
		return r.look(f.ObserveFramed)
	}
	return r.observe()
}

// look takes one observation for the record with observe.
func (r *run) look(observe func(context.Context) (Sample, error)) (Sample, error) {
	s, err := observe(r.ctx)
	s = r.stamp(s).Redact(r.secrets)
	if err == nil {
		r.seen = s
		r.holds.saw(s)
	}
	return s, err
}

// lean reports whether the page keeps screenshots only where the executor asks for them.
func (r *run) lean() bool {
	f, ok := r.page.(Framer)
	return ok && !f.KeepsFrames()
}

// stamp numbers an observation taken for the record and times it from the attempt's start.
func (r *run) stamp(s Sample) Sample {
	r.observed++
	s.Seq, s.AtMS = r.observed, r.sinceStart()
	return s
}

// recheck re-observes the page a commit is about to act on, and has policy decide the commit
// again on it, grounded on the observation it was decided on: with the pointer moved onto
// its control first, as a person would, when the policy revalidates commits and no approval
// has just done so; and whenever that observation has grown older than the task's freshness
// limit. planned is the action as proposed, which policy decides on; resolved has the target
// that matched. The step keeps the new decision and observation, its reason saying why it
// was re-checked. held reports that the commit must not run; a non-empty terminal then ends
// the attempt, an empty one lets a planner that re-plans go on.
func (r *run) recheck(s *Step, planned, resolved Action, approved bool) (held bool, term Terminal, reason string) {
	a := planned
	rv, ok := r.x.Policy.(Revalidating)
	approach := ok && rv.Revalidates() && !approved
	age, limit := r.sinceStart()-r.seen.AtMS, 0
	if r.authority != nil {
		limit = r.authority.FreshnessMS
	}
	stale := limit > 0 && age > int64(limit)
	if !approach && !stale {
		return false, "", ""
	}
	old := r.seen
	var fresh Sample
	var err error
	why := "re-checked with the pointer on the control: "
	if approach {
		fresh, err = r.approach(resolved)
	} else {
		fresh, err = r.observe()
	}
	if stale {
		why = fmt.Sprintf("the observation was %d ms old (limit %d ms), so it was re-taken: ", age, limit)
	}
	if err != nil {
		t, err := r.fail(err, ClassObserve)
		s.Error = err.Error()
		return true, t, fmt.Sprintf("step %d (%s): re-checking the page before the commit failed: %v", s.Index+1, a.Description, err)
	}
	prior := s.Decision
	d := r.decide(PolicyRequest{Action: a, Grounding: old, Fresh: fresh, Spent: s.Index, Budget: r.cfg.Budget,
		History: r.steps, Safeguards: r.cfg.Safeguards, Intent: r.intent, Prior: &prior})
	d.AskUser = s.Decision.AskUser // the approval, if any, is already bound to its own re-check
	d.Reason = why + d.Reason
	d.Review = paidReviews(prior.Review, d.Review)
	s.Decision, s.Before = d, fresh
	if d.Admission == Allow {
		return false, "", ""
	}
	s.Error = d.Reason
	if rp, ok := r.planner.(Replanner); ok && rp.Replans() {
		return true, "", ""
	}
	return true, Rejected, fmt.Sprintf("step %d (%s) held: %s", s.Index+1, a.Description, d.Reason)
}

// paidReviews is the review a re-check's decision records, so that the step's record keeps
// what its reviews cost: the re-check's own review (kept from before, or new, adding the
// cost of the review it replaced), or, when the re-check decided without one, the review
// before it, marked kept.
func paidReviews(before, after *Review) *Review {
	switch {
	case before == nil || (after != nil && after.Kept):
		return after
	case after == nil:
		kept := *before
		kept.Kept = true
		return &kept
	}
	both := *after
	both.InTokens += before.InTokens
	both.OutTokens += before.OutTokens
	both.CostUSD += before.CostUSD
	return &both
}

// observePlain samples the page for an oracle's page conditions.
func (r *run) observePlain(ctx context.Context) (Sample, error) {
	s, err := r.page.Observe(ctx)
	return s.Redact(r.secrets), err
}

func (r *run) sleep(d time.Duration) error { return r.x.sleepCtx(r.ctx, d) }

func (r *run) sinceStart() int64 { return r.x.now().Sub(r.start).Milliseconds() }

func (r *run) end(t Terminal, reason string) Outcome {
	r.abandonFixedCheck()
	if r.fixedCheck != nil {
		for range r.fixedCheck { // a check already under way finishes before the attempt does
		}
	}
	if halt, why := r.halted(); halt != "" && t != halt {
		t, reason = halt, why+": "+reason
	}
	inFlight := t != Completed && !r.settled && r.committed
	if inFlight {
		r.stop()
	}
	if inFlight && (t == Cancelled || t == Exhausted) {
		t, reason = r.settleStopped(t, reason)
	}
	if r.stopped.Load() {
		reason += "; pending requests were stopped"
	}
	if t != Completed {
		reason += r.holdsPassed()
	}
	if r.holds.unheld != "" {
		reason += "; " + r.holds.unheld
	}
	if r.browserLog == "" && errors.Is(r.err, ErrBrowserGone) {
		// The call that ended the attempt may have failed before any call brought the
		// browser's log; the page knows it once one has.
		r.browserLog = BrowserLogOf(r.gone())
	}
	fileBySender(r.steps)
	return Outcome{Steps: r.steps, Terminal: t, Reason: maskSecrets(reason, r.secrets), Err: r.err, Turns: r.turns,
		BrowserLog: maskSecrets(r.browserLog, r.secrets), Seen: r.seen, Opening: r.opening}
}

// holdsPassed names the steps the harness held while letting the attempt go on, for the
// reason of an attempt that then failed: the hold may be why, though a later step ended it.
// Step numbers are the trace's (1-based indexes); "" when none was held.
func (r *run) holdsPassed() string {
	var held []string
	for _, s := range r.steps {
		if s.Decision.Admission == Hold && s.Decision.Continue {
			held = append(held, fmt.Sprintf("step %d (%s) was held: %s", s.Index+1, s.Action.Description, s.Decision.Reason))
		}
	}
	if len(held) == 0 {
		return ""
	}
	return "; earlier, " + strings.Join(held, "; ")
}

// stop aborts the page's pending work once. It runs even when the attempt's context is
// cancelled, because cancelling must abort what the attempt left in flight.
func (r *run) stop() {
	r.stopOnce.Do(r.stopPage)
}

// stopPage stops the page; only a stop that worked is reported as one.
func (r *run) stopPage() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if r.page.Stop(ctx) == nil {
		r.stopped.Store(true)
	}
}

func (x *Executor) schedule(ctx context.Context, d time.Duration, check func() Check) <-chan Check {
	if x.Schedule != nil {
		return x.Schedule(ctx, d, check)
	}
	ch := make(chan Check, 1)
	go func() {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			close(ch)
		case <-t.C:
			ch <- check()
			close(ch)
		}
	}()
	return ch
}

func (x *Executor) now() time.Time {
	if x.Now != nil {
		return x.Now()
	}
	return time.Now()
}

// fail keeps err as the attempt's ending error and maps it, for an action of the given class,
// to a terminal state: a cancelled attempt is Cancelled; a failure while committing may have
// crossed the commit boundary, so it is Ambiguous, unless the page refused before acting
// (ErrRefused); anything else, the page's death included, is Failed (Reconcile makes it
// Ambiguous if the effect landed all the same). When the page
// died, the error kept is the death rather than the cancellation it caused. It returns the
// terminal state and the error as kept.
func (r *run) fail(err error, class ActionClass) (Terminal, error) {
	if r.browserLog == "" {
		r.browserLog = BrowserLogOf(err)
	}
	if gone := r.gone(); gone != nil && errors.Is(err, context.Canceled) && !errors.Is(err, ErrBrowserGone) {
		err = gone
	}
	r.err = err
	switch {
	case r.cancelled():
		halt, _ := r.halted()
		return halt, err
	case errors.Is(err, context.Canceled) && !errors.Is(err, ErrBrowserGone):
		return Cancelled, err
	case class.Commits() && !errors.Is(err, ErrRefused):
		return Ambiguous, err
	}
	return Failed, err
}

// interrupted is the terminal state and reason once r.ctx has ended, or the page died, where
// the attempt stood (where: "before step 3"): Failed with the page's death, or Cancelled
// when the caller stopped it.
func (r *run) interrupted(where string) (Terminal, string) {
	gone := r.gone()
	if halt, why := r.halted(); gone == nil || halt != "" {
		if halt == "" {
			halt, why = Cancelled, "cancelled"
		}
		return halt, why + " " + where
	}
	t, err := r.fail(gone, ClassObserve)
	return t, where + ": " + err.Error()
}

// cancelled reports whether the caller stopped the attempt: its context ended, and not
// because the page died.
func (r *run) cancelled() bool {
	return r.ctx.Err() != nil && !errors.Is(context.Cause(r.ctx), ErrBrowserGone)
}

// gone is the page's death, ErrBrowserGone with what happened; nil while the page lives or
// when it cannot tell.
func (r *run) gone() error {
	if r.life == nil {
		return nil
	}
	return r.life.GoneErr()
}

// unmet names the first condition that does not hold, with its evidence.
func unmet(g Gate) string {
	if c, ok := g.FirstUnmet(); ok {
		return fmt.Sprintf("%s (%s)", c.Label, c.Evidence)
	}
	return "no condition was evaluated"
}

// Reconcile settles the terminal state against the verdicts judged on the lab's final,
// quiesced state: once the page is closed nothing more can change. A completion the final
// state does not support, or a failure or rejection whose intended effect landed anyway
// (the gate holds, or ground truth says what was asked is there), is Ambiguous rather than a confident
// lie. Exhausted and cancelled attempts keep their state, with the landed effect named.
func Reconcile(o Outcome, final Verdicts) (Terminal, string) {
	landed := final.Gate.Done || final.Truth.Done
	switch {
	case errors.Is(o.Err, ErrHeldAtStart): // whatever the final state, it was there before
		return o.Terminal, o.Reason
	case errors.Is(o.Err, ErrUnseenChange): // it landed, but not through anything recorded
		return o.Terminal, o.Reason
	case o.Terminal == Completed && !final.Gate.Done:
		return Ambiguous, "the gate held while running but not in the final state: " + o.Reason
	case o.Terminal == Completed || !landed:
		return o.Terminal, o.Reason
	case o.Terminal == Exhausted || o.Terminal == Cancelled:
		return o.Terminal, o.Reason + "; the requested effect landed all the same"
	}
	return Ambiguous, o.Reason + "; yet the requested effect landed after the executor stopped"
}
