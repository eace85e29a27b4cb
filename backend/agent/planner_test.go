package agent_test

import (
	"context"
	"errors"
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

// secretPage echoes every filled value into its samples, as a text field shows it.
type secretPage struct {
	fakePage
	masked []agent.Target
	typed  string
}

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
	for _, s := range out.Steps {
		for _, text := range []string{s.Action.Value, s.After.Text, s.After.Fields[0].Value} {
			if strings.Contains(text, secret) {
				t.Fatalf("step %d records the secret: %q", s.Index, text)
			}
		}
	}
}
