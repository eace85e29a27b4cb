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

// replanner proposes the scripted plan but, when policy holds a proposal, skips it and goes
// on, as a model planner that takes a hold back would.
type replanner struct {
	plan  agent.Plan
	next  int
	saw   []agent.Step
	calls int
}

func (p *replanner) Replans() bool { return true }

func (p *replanner) Next(_ context.Context, _ agent.Sample, history []agent.Step) (agent.Proposal, error) {
	p.calls++
	p.saw = history
	if p.next >= len(p.plan) {
		return agent.Proposal{End: true}, nil
	}
	a := p.plan[p.next]
	p.next++
	return agent.Proposal{Action: a, Reason: "because " + a.ID}, nil
}

// holdOnce holds the first proposal of the given kind, then admits as the harness does.
type holdOnce struct {
	kind agent.ActionKind
	held bool
	err  error
}

func (h *holdOnce) Decide(ctx context.Context, req agent.PolicyRequest) (agent.Decision, error) {
	if req.Action.Kind == h.kind && !h.held {
		h.held = true
		if h.err != nil {
			return agent.Decision{Class: agent.ClassCommit}, h.err
		}
		return agent.Decision{Class: agent.ClassCommit, Admission: agent.Hold, Reason: "held for review"}, nil
	}
	return harness.Policy{}.Decide(ctx, req)
}

func TestAHeldActionIsReplannedByAPlannerThatCan(t *testing.T) {
	withSecondSubmit := append(plan()[:3:3], plan()[2], plan()[3])
	p := &replanner{plan: withSecondSubmit}
	clock := &fakeClock{t: time.Unix(0, 0)}
	x := &agent.Executor{Policy: &holdOnce{kind: agent.ActSubmit}, Now: clock.now, Sleep: clock.sleep}
	out := x.Run(context.Background(), &fakePage{controls: controls()}, agent.Job{Env: &fakeLab{doneAt: 1}, Planner: p, Config: agent.DefaultConfig()}, agent.Hooks{})
	if out.Terminal != agent.Completed {
		t.Fatalf("terminal %s (%s), want completed after the planner re-planned", out.Terminal, out.Reason)
	}
	held := out.Steps[2]
	if held.Decision.Admission != agent.Hold || held.Error == "" || held.Reason != "because submit" {
		t.Errorf("held step = %+v: want the hold recorded with the planner's reason", held)
	}
	if len(p.saw) < 3 || p.saw[2].Decision.Admission != agent.Hold {
		t.Errorf("the planner was not shown the held step in its history")
	}
}

func TestAPolicyThatCannotDecideHoldsTheAction(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	pol := &holdOnce{kind: agent.ActSubmit, err: errors.New("reviewer unreachable")}
	page := &fakePage{controls: controls()}
	x := &agent.Executor{Policy: pol, Now: clock.now, Sleep: clock.sleep}
	out := x.Run(context.Background(), page, agent.Job{Env: &fakeLab{doneAt: 1}, Planner: planner.Scripted(plan()), Config: agent.DefaultConfig()}, agent.Hooks{})
	if out.Terminal != agent.Rejected || !strings.Contains(out.Reason, "reviewer unreachable") {
		t.Fatalf("terminal %s (%s), want rejected naming the policy's failure", out.Terminal, out.Reason)
	}
	for _, a := range page.acted {
		if strings.HasPrefix(a, "submit") {
			t.Errorf("the submit ran although policy could not decide: %v", page.acted)
		}
	}
}

// secretPage echoes every filled value into its samples, as a text field shows it, and
// keeps the secrets it is told (a page writing DOM snapshots masks them).
type secretPage struct {
	fakePage
	masked []agent.Target
	kept   []string
	typed  string
}

func (p *secretPage) KeepSecret(values ...string) { p.kept = append(p.kept, values...) }

func (p *secretPage) Act(ctx context.Context, a agent.Action) error {
	if a.Kind == agent.ActFill {
		p.typed = a.Value
	}
	return p.fakePage.Act(ctx, a)
}

func (p *secretPage) Mask(t agent.Target) { p.masked = append(p.masked, t) }

func (p *secretPage) Observe(ctx context.Context) (agent.Sample, error) {
	s, err := p.fakePage.Observe(ctx)
	s.Fields = []agent.Field{{Role: "textbox", Name: "Password", Value: p.typed}}
	s.Text = "you typed " + p.typed
	return s, err
}

func TestSecretsAreTypedButNeverRecorded(t *testing.T) {
	const secret = "hunter2-very-secret"
	pl := agent.Plan{
		{ID: "pw", Description: "Fill password", Kind: agent.ActFill, Target: agent.Target{Role: "textbox", Name: "Title"}, Value: secret, Secret: true},
		{ID: "verify", Description: "Verify", Kind: agent.ActVerify},
	}
	page := &secretPage{fakePage: fakePage{controls: controls()}}
	clock := &fakeClock{t: time.Unix(0, 0)}
	x := &agent.Executor{Policy: harness.Policy{}, Now: clock.now, Sleep: clock.sleep}
	out := x.Run(context.Background(), page, agent.Job{Env: &fakeLab{doneAt: 1}, Planner: planner.Scripted(pl), Config: agent.DefaultConfig()}, agent.Hooks{})
	if page.typed != secret {
		t.Fatalf("the page was given %q, want the secret itself", page.typed)
	}
	if len(page.masked) != 1 || page.masked[0].Name != "Title" {
		t.Errorf("masked %v: want the secret's field masked in screenshots", page.masked)
	}
	if !slices.Equal(page.kept, []string{secret}) {
		t.Errorf("the page was told the secrets %q, want the typed one, to mask in the files it writes", page.kept)
	}
	for _, s := range out.Steps {
		for _, text := range []string{s.Action.Value, s.After.Text, s.After.Fields[0].Value} {
			if strings.Contains(text, secret) {
				t.Fatalf("step %d records the secret: %q", s.Index, text)
			}
		}
	}
}

// TestAnUnresolvedTargetGoesBackToAPlannerThatReplans checks that a target matching several
// elements, or none, ends a scripted plan's attempt but is only a recorded step for a planner
// that re-plans: nothing ran, the step says so, and the attempt goes on to completion.
func TestAnUnresolvedTargetGoesBackToAPlannerThatReplans(t *testing.T) {
	for _, c := range []struct {
		name    string
		matches int
		want    string
	}{{"several match", 3, "3 matches"}, {"none match", 0, agent.ErrNoTarget.Error()}} {
		t.Run(c.name, func(t *testing.T) {
			wrong := agent.Action{ID: "delete", Description: "Delete it", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Delete"}}
			ctl := controls()
			ctl["button[Delete]"] = c.matches
			clock := &fakeClock{t: time.Unix(0, 0)}
			x := &agent.Executor{Policy: harness.Policy{}, Now: clock.now, Sleep: clock.sleep}

			p := &replanner{plan: append(agent.Plan{wrong}, plan()...)}
			page := &fakePage{controls: ctl}
			out := x.Run(context.Background(), page, agent.Job{Env: &fakeLab{doneAt: 1}, Planner: p, Config: agent.DefaultConfig()}, agent.Hooks{})
			if out.Terminal != agent.Completed {
				t.Fatalf("terminal %s (%s), want completed after the planner named another target", out.Terminal, out.Reason)
			}
			s := out.Steps[0]
			if !s.Unresolved || !strings.Contains(s.Error, c.want) || slices.Contains(page.acted, "click Delete") {
				t.Errorf("the unresolved step is %+v (acted %v), want it recorded as not run with %q", s, page.acted, c.want)
			}
			if len(p.saw) < 1 || !p.saw[0].Unresolved {
				t.Error("the planner was not shown the unresolved step")
			}

			scripted := x.Run(context.Background(), &fakePage{controls: ctl}, agent.Job{Env: &fakeLab{doneAt: 1},
				Planner: planner.Scripted(append(agent.Plan{wrong}, plan()...)), Config: agent.DefaultConfig()}, agent.Hooks{})
			if scripted.Terminal == agent.Completed || scripted.Steps[0].Unresolved {
				t.Errorf("a scripted plan went on past its unresolved target: %s (%s)", scripted.Terminal, scripted.Reason)
			}
		})
	}
}

// endingPlanner proposes one click, then ends planning with err, handing back the turns it
// spent on the way.
type endingPlanner struct {
	err   error
	turns []agent.ModelTurn
}

func (p *endingPlanner) Next(_ context.Context, _ agent.Sample, history []agent.Step) (agent.Proposal, error) {
	if len(history) == 0 {
		return agent.Proposal{Action: plan()[0], Turns: []agent.ModelTurn{{Step: 0, Model: "m", InTokens: 10}}}, nil
	}
	return agent.Proposal{Turns: p.turns}, p.err
}

// TestPlanningThatEndsOnALimitIsExhaustedAndKeepsItsTurns checks that a planner's own limit
// (a time limit, a token budget) ends the attempt exhausted, naming the limit, that the steps
// it took stay, and that the turns of the planning that ended it are kept on the outcome; and
// that the observations the attempt took are numbered from 1, in order.
func TestPlanningThatEndsOnALimitIsExhaustedAndKeepsItsTurns(t *testing.T) {
	for _, limit := range []string{"the 2m0s time limit is up: time limit", "300 of 250 tokens spent: token budget"} {
		turns := []agent.ModelTurn{{Step: 1, Notes: []string{"every model refused; waited 2m0s"}, Error: limit}}
		p := &endingPlanner{err: fmt.Errorf("%s: %w", limit, agent.ErrExhausted), turns: turns}
		clock := &fakeClock{t: time.Unix(0, 0)}
		x := &agent.Executor{Policy: harness.Policy{}, Now: clock.now, Sleep: clock.sleep}
		out := x.Run(context.Background(), &fakePage{controls: controls()}, agent.Job{Env: &fakeLab{}, Planner: p, Config: agent.DefaultConfig()}, agent.Hooks{})
		if out.Terminal != agent.Exhausted || !strings.Contains(out.Reason, limit) {
			t.Errorf("terminal %s (%s), want exhausted naming %q", out.Terminal, out.Reason, limit)
		}
		if len(out.Steps) != 1 || len(out.Turns) != 1 || out.Turns[0].Error != limit || out.Turns[0].Notes[0] != turns[0].Notes[0] {
			t.Errorf("steps %d, turns %+v; want the step kept and the ending turn", len(out.Steps), out.Turns)
		}
		if s := out.Steps[0]; s.Before.Seq < 2 || s.After.Seq != s.Before.Seq+1 {
			t.Errorf("the step's observations are numbered %d and %d, want later than the first look (1), in order", s.Before.Seq, s.After.Seq)
		}
	}
}
