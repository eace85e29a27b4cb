package session

import (
	"context"
	"errors"
	"testing"
	"time"

	"observatory/backend/agent"
)

// drive plays the runner and the executor of a session's run: it starts each attempt the
// session asks for, hands every proposal back as a recorded step, and ends the attempt at a
// verify step (the agent's done) or when planning ends.
func drive(ctx context.Context, s *Session, ended chan<- agent.Attempt) {
	for {
		spec, ok := s.Next(ctx)
		if !ok {
			close(ended)
			return
		}
		p := s.Planner(spec).(agent.Driven)
		p.Bind(nil)
		a := agent.Attempt{Slug: spec.Slug}
		for {
			prop, err := p.Next(ctx, agent.Sample{}, a.Steps)
			if err != nil {
				a.Terminal, a.Reason = agent.Cancelled, err.Error()
				break
			}
			a.Steps = append(a.Steps, agent.Step{Index: len(a.Steps), Action: prop.Action})
			if prop.Action.Kind == agent.ActVerify {
				a.Terminal = agent.Completed
				break
			}
		}
		a.Claim = p.(agent.Claimant).Claim()
		p.Ended(a)
		ended <- a
	}
}

// TestASessionStartsAnAttemptAtTheFirstActionAndEndsItAtDone: each action returns its own
// recorded step; done ends the attempt with the agent's claim; the next action starts the
// next attempt, the last one again once the list is spent; an agent that leaves ends the
// attempt under way cancelled, with no done claim, and the run has no more attempts.
func TestASessionStartsAnAttemptAtTheFirstActionAndEndsItAtDone(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := New([]agent.AttemptSpec{{Slug: "first"}, {Slug: "second"}}, agent.ClaimMCP)
	if err != nil {
		t.Fatal(err)
	}
	ended := make(chan agent.Attempt, 10)
	go drive(ctx, s, ended)
	stopped := make(chan struct{})
	click := func(id string) agent.Proposal {
		return agent.Proposal{Action: agent.Action{ID: id, Kind: agent.ActClick, Target: agent.Target{CSS: "#" + id}}}
	}
	for _, want := range []string{"first", "second", "second-2"} {
		for i, id := range []string{"a", "b"} {
			r, err := s.Act(ctx, stopped, click(id))
			if err != nil || r.Step == nil || r.Step.Index != i || r.Step.Action.ID != id || r.Ended != nil {
				t.Fatalf("%s: action %s: %+v, %v", want, id, r, err)
			}
		}
		a, err := s.Done(ctx, stopped, agent.Claim{Done: true, Words: "done with " + want})
		if err != nil || a.Slug != want || a.Terminal != agent.Completed || a.Claim == nil || !a.Claim.Done || a.Claim.Source != agent.ClaimMCP {
			t.Fatalf("done on %s: %+v, %v", want, a, err)
		}
		<-ended
		if _, err := s.Done(ctx, stopped, agent.Claim{Done: true}); err == nil {
			t.Fatal("done with no attempt under way was accepted")
		}
	}
	if _, err := s.Act(ctx, stopped, click("c")); err != nil {
		t.Fatal(err)
	}
	s.Leave()
	a := <-ended
	if a.Slug != "second-3" || a.Terminal != agent.Cancelled || a.Claim == nil || a.Claim.Done {
		t.Errorf("the attempt the agent left: %+v", a)
	}
	if _, more := <-ended; more {
		t.Error("an attempt started after the agent left")
	}
	if _, err := s.Act(ctx, stopped, click("d")); !errors.Is(err, ErrClosed) {
		t.Errorf("an action after the agent left: %v, want ErrClosed", err)
	}
}
