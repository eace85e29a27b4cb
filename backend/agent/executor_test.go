package agent_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/harness"
	"observatory/backend/planner"
)

// fakePage is a scripted page: controls maps role[name] to how many elements match, and every
// action appends a pair so that samples change.
type fakePage struct {
	controls map[string]int
	acted    []string
	actErr   map[string]error // by action kind
	obsErr   error
	dialog   bool
	stops    int
}

func (p *fakePage) Goto(ctx context.Context, url string) error { return ctx.Err() }

func (p *fakePage) Observe(ctx context.Context) (agent.Sample, error) {
	if p.obsErr != nil {
		return agent.Sample{}, p.obsErr
	}
	s := agent.Sample{URL: "http://lab/", DialogOpen: p.dialog}
	for _, a := range p.acted {
		if !strings.HasPrefix(a, "hover ") { // moving the pointer changes nothing here
			s.Pairs = append(s.Pairs, agent.RoleName{Role: "done", Name: a})
		}
	}
	return s, ctx.Err()
}

func (p *fakePage) Resolve(ctx context.Context, t agent.Target) error {
	switch n := p.controls[t.String()]; {
	case n == 0:
		return agent.ErrNoTarget
	case n > 1:
		return fmt.Errorf("%d matches: %w", n, agent.ErrAmbiguousTarget)
	}
	return nil
}

func (p *fakePage) Act(ctx context.Context, a agent.Action) error {
	if err := p.actErr[string(a.Kind)]; err != nil {
		return err
	}
	p.acted = append(p.acted, string(a.Kind)+" "+a.Target.Name)
	if a.Kind == agent.ActClick {
		p.dialog = true
	}
	return nil
}

func (p *fakePage) Stop(context.Context) error { p.stops++; return nil }

func (p *fakePage) Mask(agent.Target) {}

func (p *fakePage) Blocked() []string           { return nil }
func (p *fakePage) Transfers() []agent.Transfer { return nil }

func (p *fakePage) Close() (agent.Recording, error) { return agent.Recording{}, nil }

// fakeLab answers checks from a script. The executor's first check is the baseline, before
// anything acted: the gate holds there only when heldAtStart is set. After it, the gate holds
// from the doneAt-th check on (0 never), and settled, when set, is returned from the first.
type fakeLab struct {
	baselined   bool
	heldAtStart bool
	checks      int
	doneAt      int
	settled     agent.Terminal
	// unanswerable is the fake's Check.Unanswerable once the attempt has acted.
	unanswerable string
}

func (l *fakeLab) StartURL() string                  { return "http://lab/" }
func (l *fakeLab) Origins() []string                 { return nil }
func (l *fakeLab) Quiesce(ctx context.Context) error { return nil }
func (l *fakeLab) Events() []agent.Event             { return nil }
func (l *fakeLab) Answers(context.Context, agent.Observer) []agent.Answer {
	return nil
}
func (l *fakeLab) Close() error { return nil }
func (l *fakeLab) Check(context.Context, agent.Observer) agent.Check {
	if !l.baselined {
		l.baselined = true
		return agent.Check{Gate: agent.NewGate([]agent.Condition{{ID: "record", Label: "Committed record exists", Verdict: agent.Verdict{Done: l.heldAtStart, Evidence: "fake"}}})}
	}
	l.checks++
	done := l.doneAt > 0 && l.checks >= l.doneAt
	c := agent.Check{Gate: agent.NewGate([]agent.Condition{{ID: "record", Label: "Committed record exists", Verdict: agent.Verdict{Done: done, Evidence: "fake"}}})}
	if l.settled != "" {
		c.Settled, c.SettledReason = l.settled, "settled by the fake"
	}
	c.Unanswerable = l.unanswerable
	return c
}

// policyFunc is a Policy written as a function.
type policyFunc func(agent.PolicyRequest) agent.Decision

func (f policyFunc) Decide(_ context.Context, req agent.PolicyRequest) (agent.Decision, error) {
	return f(req), nil
}

func plan() agent.Plan {
	return agent.Plan{
		{ID: "open", Description: "Open reservation dialog", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Reserve slot", Alias: "Book a slot"}},
		{ID: "fill", Description: "Fill task title", Kind: agent.ActFill, Target: agent.Target{Role: "textbox", Name: "Title"}, Value: "Spectral scan"},
		{ID: "submit", Description: "Submit reservation form", Kind: agent.ActSubmit, Target: agent.Target{Role: "button", Name: "Save"}},
		{ID: "verify", Description: "Verify committed reservation", Kind: agent.ActVerify},
	}
}

func controls() map[string]int {
	return map[string]int{"button[Reserve slot]": 1, "textbox[Title]": 1, "button[Save]": 1}
}

// fakeClock advances only when the executor sleeps, so deadlines are exact and instant.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }
func (c *fakeClock) sleep(ctx context.Context, d time.Duration) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	c.t = c.t.Add(d)
	return nil
}

func TestExecutorTerminalStates(t *testing.T) {
	gone := fmt.Errorf("page crashed: %w", agent.ErrBrowserGone)
	tests := []struct {
		name      string
		page      func(*fakePage)
		lab       fakeLab
		cfg       func(*agent.Config)
		want      agent.Terminal
		steps     int
		reasonHas string
	}{
		{name: "gate holds on the third poll", lab: fakeLab{doneAt: 3}, want: agent.Completed, steps: 4, reasonHas: "every completion condition holds"},
		{name: "gate holds before anything is done", lab: fakeLab{heldAtStart: true, doneAt: 1}, want: agent.Ambiguous, steps: 0, reasonHas: "held before the attempt acted"},
		{name: "deadline passes", lab: fakeLab{}, want: agent.Failed, steps: 4, reasonHas: "1500 ms deadline passed"},
		{name: "app settles as refused", lab: fakeLab{settled: agent.Rejected}, want: agent.Rejected, steps: 4, reasonHas: "settled by the fake"},
		{name: "an oracle refuses: waiting stops at once", lab: fakeLab{unanswerable: "nothing listens"}, want: agent.Failed, steps: 4, reasonHas: "the gate cannot hold, so waiting stopped: nothing listens"},
		{name: "fixed wait checks once", lab: fakeLab{doneAt: 2}, cfg: func(c *agent.Config) { c.Wait = agent.WaitFixed }, want: agent.Failed, steps: 4, reasonHas: "fixed 200 ms wait"},
		{name: "fixed wait long enough", lab: fakeLab{doneAt: 1}, cfg: func(c *agent.Config) { c.Wait = agent.WaitFixed }, want: agent.Completed, steps: 4},
		{name: "budget spent", lab: fakeLab{doneAt: 1}, cfg: func(c *agent.Config) { c.Budget = 2 }, want: agent.Exhausted, steps: 3, reasonHas: "budget spent: 2 of 2"},
		{name: "renamed control, exact names", page: func(p *fakePage) { delete(p.controls, "button[Reserve slot]"); p.controls["button[Book a slot]"] = 1 }, lab: fakeLab{doneAt: 1}, want: agent.Failed, steps: 1, reasonHas: "button[Reserve slot]"},
		{name: "renamed control, alias policy", page: func(p *fakePage) { delete(p.controls, "button[Reserve slot]"); p.controls["button[Book a slot]"] = 1 }, lab: fakeLab{doneAt: 1}, cfg: func(c *agent.Config) { c.Selectors = agent.SelectAlias }, want: agent.Completed, steps: 4},
		{name: "two matching controls", page: func(p *fakePage) { p.controls["button[Save]"] = 2 }, lab: fakeLab{doneAt: 1}, want: agent.Rejected, steps: 3, reasonHas: "never picks the first"},
		{name: "browser crash while preparing", page: func(p *fakePage) { p.actErr = map[string]error{"fill": gone} }, lab: fakeLab{doneAt: 1}, want: agent.Failed, steps: 2, reasonHas: "crashed"},
		{name: "browser crash while committing", page: func(p *fakePage) { p.actErr = map[string]error{"submit": gone} }, lab: fakeLab{doneAt: 1}, want: agent.Ambiguous, steps: 3, reasonHas: "crashed"},
		{name: "a commit the page refused before acting", page: func(p *fakePage) {
			p.actErr = map[string]error{"submit": fmt.Errorf("%w: outside the uploads folder", agent.ErrRefused)}
		}, lab: fakeLab{doneAt: 1}, want: agent.Failed, steps: 3, reasonHas: "outside the uploads folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := &fakePage{controls: controls()}
			if tt.page != nil {
				tt.page(page)
			}
			cfg := agent.DefaultConfig()
			if tt.cfg != nil {
				tt.cfg(&cfg)
			}
			clock := &fakeClock{t: time.Unix(0, 0)}
			x := &agent.Executor{Policy: harness.Policy{}, Now: clock.now, Sleep: clock.sleep}
			var hooked []agent.Step
			out := x.Run(context.Background(), page, agent.Job{Env: &tt.lab, Planner: planner.Scripted(plan()), Config: cfg}, agent.Hooks{Step: func(s agent.Step) { hooked = append(hooked, s) }})
			if out.Terminal != tt.want {
				t.Fatalf("terminal = %s (%s), want %s", out.Terminal, out.Reason, tt.want)
			}
			if len(out.Steps) != tt.steps || len(hooked) != tt.steps {
				t.Fatalf("steps = %d, hooked %d, want %d", len(out.Steps), len(hooked), tt.steps)
			}
			if !strings.Contains(out.Reason, tt.reasonHas) {
				t.Errorf("reason %q does not mention %q", out.Reason, tt.reasonHas)
			}
		})
	}
}

func TestExecutorRecordsProposalDecisionAndSamples(t *testing.T) {
	page := &fakePage{controls: controls()}
	page.controls["button[Book a slot]"] = 1
	delete(page.controls, "button[Reserve slot]")
	clock := &fakeClock{t: time.Unix(0, 0)}
	cfg := agent.DefaultConfig()
	cfg.Selectors = agent.SelectAlias
	x := &agent.Executor{Policy: harness.Policy{}, Now: clock.now, Sleep: clock.sleep}
	out := x.Run(context.Background(), page, agent.Job{Env: &fakeLab{doneAt: 1}, Planner: planner.Scripted(plan()), Config: cfg}, agent.Hooks{})

	first := out.Steps[0]
	if first.Resolved != "Book a slot" {
		t.Errorf("resolved = %q, want the alias", first.Resolved)
	}
	if first.Decision.Admission != agent.Allow || first.Decision.Class != agent.ClassCommit {
		t.Errorf("decision = %+v, want an allowed commit (the name says book)", first.Decision)
	}
	if len(first.Before.Pairs) != 0 || len(first.After.Pairs) != 1 || first.Distance != 1 {
		t.Errorf("before %v after %v distance %v: want the action's pair added, distance 1", first.Before.Pairs, first.After.Pairs, first.Distance)
	}
	if out.Steps[1].Decision.Class != agent.ClassPrepare || out.Steps[3].Decision.Class != agent.ClassObserve {
		t.Errorf("classes = %s, %s; want prepare, observe", out.Steps[1].Decision.Class, out.Steps[3].Decision.Class)
	}
}

func TestExecutorHoldsACommitWhenThePageChanged(t *testing.T) {
	page := &fakePage{controls: controls()}
	x := &agent.Executor{Policy: policyFunc(func(req agent.PolicyRequest) agent.Decision {
		if req.Action.Kind == agent.ActSubmit {
			req.Fresh.URL = "http://elsewhere/" // the page moved between planning and acting
		}
		return harness.Admit(req)
	})}
	out := x.Run(context.Background(), page, agent.Job{Env: &fakeLab{doneAt: 1}, Planner: planner.Scripted(plan()), Config: agent.DefaultConfig()}, agent.Hooks{})
	if out.Terminal != agent.Rejected || !strings.Contains(out.Reason, "held") {
		t.Fatalf("terminal %s (%s), want rejected because the commit was held", out.Terminal, out.Reason)
	}
	if got := page.acted; len(got) != 2 {
		t.Errorf("acted %v: the held submit must not run", got)
	}
}

func TestExecutorCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	clock := &fakeClock{t: time.Unix(0, 0)}
	polls := 0
	x := &agent.Executor{Policy: harness.Policy{}, Now: clock.now, Sleep: clock.sleep}
	out := x.Run(ctx, &fakePage{controls: controls()}, agent.Job{Env: &fakeLab{}, Planner: planner.Scripted(plan()), Config: agent.DefaultConfig()},
		agent.Hooks{Check: func(agent.Check) {
			if polls++; polls == 3 {
				cancel()
			}
		}})
	if out.Terminal != agent.Cancelled {
		t.Fatalf("terminal %s (%s), want cancelled", out.Terminal, out.Reason)
	}
}

func TestReconcile(t *testing.T) {
	v := func(gate, saved bool) agent.Verdicts {
		return agent.Verdicts{Gate: agent.Gate{Done: gate}, Truth: agent.Signal{Verdict: agent.Verdict{Done: saved}}}
	}
	tests := []struct {
		term      agent.Terminal
		final     agent.Verdicts
		want      agent.Terminal
		reasonHas string
	}{
		{agent.Completed, v(true, true), agent.Completed, "r"},
		{agent.Completed, v(false, true), agent.Ambiguous, "not in the final state"},
		{agent.Failed, v(false, false), agent.Failed, "r"},
		{agent.Failed, v(true, true), agent.Ambiguous, "after the executor stopped"},
		{agent.Failed, v(false, true), agent.Ambiguous, "after the executor stopped"},
		{agent.Rejected, v(true, true), agent.Ambiguous, "after the executor stopped"},
		{agent.Exhausted, v(false, true), agent.Exhausted, "landed all the same"},
		{agent.Cancelled, v(true, true), agent.Cancelled, "landed all the same"},
	}
	for _, tt := range tests {
		got, reason := agent.Reconcile(agent.Outcome{Terminal: tt.term, Reason: "r"}, tt.final)
		if got != tt.want || !strings.Contains(reason, tt.reasonHas) {
			t.Errorf("Reconcile(%s, %+v) = %s (%s), want %s", tt.term, tt.final, got, reason, tt.want)
		}
	}
}

func TestGivingUpStopsPendingWork(t *testing.T) {
	for _, tt := range []struct {
		name  string
		lab   fakeLab
		stops int
	}{
		{"completed leaves the page alone", fakeLab{doneAt: 1}, 0},
		{"a failed wait stops the page once", fakeLab{}, 1},
		{"an app that settled has nothing in flight", fakeLab{settled: agent.Rejected}, 0},
		{"an unanswerable gate says nothing of the app: the page is stopped", fakeLab{unanswerable: "nothing listens"}, 1},
	} {
		page := &fakePage{controls: controls()}
		clock := &fakeClock{t: time.Unix(0, 0)}
		x := &agent.Executor{Policy: harness.Policy{}, Now: clock.now, Sleep: clock.sleep}
		out := x.Run(context.Background(), page, agent.Job{Env: &tt.lab, Planner: planner.Scripted(plan()), Config: agent.DefaultConfig()}, agent.Hooks{})
		if page.stops != tt.stops || (tt.stops > 0) != strings.Contains(out.Reason, "pending requests were stopped") {
			t.Errorf("%s: %d stops, reason %q", tt.name, page.stops, out.Reason)
		}
	}
}

func TestErrorsWrap(t *testing.T) {
	if !errors.Is(fmt.Errorf("x: %w", agent.ErrNoTarget), agent.ErrNoTarget) {
		t.Fatal("ErrNoTarget must survive wrapping")
	}
}

// slowPage makes every observation cost time on the fake clock, as screenshots do.
type slowPage struct {
	fakePage
	clock *fakeClock
	cost  time.Duration
}

func (p *slowPage) Observe(ctx context.Context) (agent.Sample, error) {
	p.clock.t = p.clock.t.Add(p.cost)
	return p.fakePage.Observe(ctx)
}

// TestFixedWaitIsScheduledWhenTheVerifiedActionActs checks that sampling costs cannot stretch
// a fixed wait: the check is scheduled FixedWait after the action before verify (the submit)
// acted, before its after sample is taken, and the executor does not sleep on top of it. No
// earlier action schedules one: a check that fired mid-plan would stop the page before the
// submit.
// TestAGateHeldAtStartIsNeverCompleted checks that an attempt whose gate held before it acted
// does nothing and stays ambiguous however its final state reads: what it did could not be
// told from what was there.
func TestAGateHeldAtStartIsNeverCompleted(t *testing.T) {
	page := &fakePage{controls: controls()}
	x := &agent.Executor{Policy: harness.Policy{}}
	out := x.Run(context.Background(), page, agent.Job{Env: &fakeLab{heldAtStart: true, doneAt: 1}, Planner: planner.Scripted(plan()), Config: agent.DefaultConfig()}, agent.Hooks{})
	if len(page.acted) != 0 || !errors.Is(out.Err, agent.ErrHeldAtStart) {
		t.Fatalf("acted %v, error %v; want nothing done, ending with ErrHeldAtStart", page.acted, out.Err)
	}
	held := agent.Verdicts{Gate: agent.Gate{Done: true}, Truth: agent.Signal{Verdict: agent.Verdict{Done: true}}}
	if term, reason := agent.Reconcile(out, held); term != agent.Ambiguous || reason != out.Reason {
		t.Errorf("reconciled with the gate holding: %s (%s), want ambiguous as it ended", term, reason)
	}
}

func TestFixedWaitIsScheduledWhenTheVerifiedActionActs(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	page := &slowPage{fakePage: fakePage{controls: controls()}, clock: clock, cost: 300 * time.Millisecond}
	var scheduled []time.Duration
	var scheduledAt time.Time
	cfg := agent.DefaultConfig()
	cfg.Wait = agent.WaitFixed
	x := &agent.Executor{Policy: harness.Policy{}, Now: clock.now, Sleep: clock.sleep,
		Schedule: func(_ context.Context, d time.Duration, check func() agent.Check) <-chan agent.Check {
			scheduled, scheduledAt = append(scheduled, d), clock.t
			ch := make(chan agent.Check, 1)
			ch <- check()
			close(ch)
			return ch
		}}
	checks := 0
	out := x.Run(context.Background(), page, agent.Job{Env: &fakeLab{}, Planner: planner.Scripted(plan()), Config: cfg}, agent.Hooks{Check: func(agent.Check) { checks++ }})
	if out.Terminal != agent.Failed || checks != 2 {
		t.Fatalf("terminal %s (%s) after %d checks; want failed after two: the baseline and the fixed wait's", out.Terminal, out.Reason, checks)
	}
	if len(scheduled) != 1 || scheduled[0] != 200*time.Millisecond {
		t.Fatalf("scheduled %v, want one 200ms check, after the submit", scheduled)
	}
	submit := out.Steps[2]
	if got := scheduledAt.Sub(time.Unix(0, 0)).Milliseconds(); got != submit.Before.AtMS {
		t.Errorf("check scheduled at %d ms, want when the submit acted (%d ms), before its 300 ms after sample", got, submit.Before.AtMS)
	}
	last := out.Steps[len(out.Steps)-1]
	if last.Before.AtMS != out.Steps[len(out.Steps)-2].After.AtMS {
		t.Errorf("verify re-observed before waiting; it should reuse the submit's after sample")
	}
}

func TestNothingIsStoppedBeforeACommitActed(t *testing.T) {
	page := &fakePage{controls: map[string]int{}} // the first control is missing
	clock := &fakeClock{t: time.Unix(0, 0)}
	x := &agent.Executor{Policy: harness.Policy{}, Now: clock.now, Sleep: clock.sleep}
	out := x.Run(context.Background(), page, agent.Job{Env: &fakeLab{}, Planner: planner.Scripted(plan()), Config: agent.DefaultConfig()}, agent.Hooks{})
	if out.Terminal != agent.Failed || page.stops != 0 || strings.Contains(out.Reason, "stopped") {
		t.Errorf("terminal %s, %d stops, reason %q; want failed with nothing stopped", out.Terminal, page.stops, out.Reason)
	}
}

// trafficPage is a fakePage that records one request per step, carrying the task's secret
// in its URL, a header and the console, and shows the secret on the page.
type trafficPage struct {
	fakePage
	finals []bool
}

func (p *trafficPage) Observe(ctx context.Context) (agent.Sample, error) {
	s, err := p.fakePage.Observe(ctx)
	s.Text = "token tok-secret-1 on the page"
	return s, err
}

func (p *trafficPage) Traffic(epoch time.Time, final bool) agent.Traffic {
	p.finals = append(p.finals, final)
	return agent.Traffic{
		Requests: []agent.Request{{Method: "GET", URL: "http://lab/api?t=tok-secret-1", ResourceType: "fetch", Status: 200, Size: 2,
			RequestHeaders: []agent.Header{{Name: "X-Echo", Value: "tok-secret-1"}, {Name: "Cookie", Value: "sid=1"}}}},
		Console: []agent.ConsoleMessage{{Level: "log", Text: "using tok-secret-1"}},
	}
}

// secretLab is a fakeLab whose task declares a secret value.
type secretLab struct{ fakeLab }

func (secretLab) Secrets() []string { return []string{"tok-secret-1"} }

func TestExecutorMasksTheTasksSecretsInSamplesAndTraffic(t *testing.T) {
	page := &trafficPage{fakePage: fakePage{controls: controls()}}
	clock := &fakeClock{t: time.Unix(0, 0)}
	x := &agent.Executor{Policy: harness.Policy{}, Now: clock.now, Sleep: clock.sleep}
	out := x.Run(context.Background(), page, agent.Job{Env: &secretLab{fakeLab{doneAt: 1}}, Planner: planner.Scripted(plan()), Config: agent.DefaultConfig()}, agent.Hooks{})
	if out.Terminal != agent.Completed || len(out.Steps) != 4 {
		t.Fatalf("terminal %s with %d steps, want completed with 4", out.Terminal, len(out.Steps))
	}
	if want := []bool{false, false, false, true}; !slices.Equal(page.finals, want) {
		t.Errorf("traffic taken with final %v, want only the last step final: %v", page.finals, want)
	}
	for _, s := range out.Steps {
		r := s.Requests[0]
		if r.URL != "http://lab/api?t=••••••" || r.RequestHeaders[0].Value != "••••••" || r.RequestHeaders[1].Value != "••••••" ||
			s.Console[0].Text != "using ••••••" || s.After.Text != "token •••••• on the page" {
			t.Errorf("step %d shows the secret: %+v %+v %q", s.Index, r, s.Console, s.After.Text)
		}
	}
}
