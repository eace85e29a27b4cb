package agent_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/harness"
)

// errorTaker is a replanner whose agent takes failed actions as answers, as an MCP client does.
type errorTaker struct{ replanner }

func (p *errorTaker) TakesErrors() bool { return true }

// TestAFailedActionIsAnAnswerToAnAgentThatTakesErrors: an action that fails (a timeout on an
// element that never shows) is a recorded step with its error, and the attempt goes on to
// completion, for a planner that takes errors; the same failure ends a planner's attempt
// that does not, and the page's death ends the error-taker's attempt too.
func TestAFailedActionIsAnAnswerToAnAgentThatTakesErrors(t *testing.T) {
	hidden := agent.Action{ID: "hidden", Description: "Hover the hidden menu", Kind: agent.ActHover, Target: agent.Target{Role: "button", Name: "Reserve slot"}}
	timeout := errors.New("locator.hover: Timeout 5000ms exceeded: element is not visible")
	run := func(p agent.Planner, err error) agent.Outcome {
		clock := &fakeClock{t: time.Unix(0, 0)}
		x := &agent.Executor{Policy: harness.Policy{}, Now: clock.now, Sleep: clock.sleep}
		page := &fakePage{controls: controls(), actErr: map[string]error{"hover": err}}
		return x.Run(context.Background(), page, agent.Job{Env: &fakeLab{doneAt: 1}, Planner: p, Config: agent.DefaultConfig()}, agent.Hooks{})
	}

	taker := &errorTaker{replanner{plan: append(agent.Plan{hidden}, plan()...)}}
	out := run(taker, timeout)
	if out.Terminal != agent.Completed || out.Err != nil {
		t.Fatalf("terminal %s (%s, %v), want completed: the failed hover is the agent's to handle", out.Terminal, out.Reason, out.Err)
	}
	if s := out.Steps[0]; !strings.Contains(s.Error, "Timeout 5000ms") {
		t.Errorf("the failed step records %q, want its error", s.Error)
	}
	if len(taker.saw) < 1 || taker.saw[0].Error == "" {
		t.Error("the agent was not shown the failed step")
	}

	if out := run(&replanner{plan: append(agent.Plan{hidden}, plan()...)}, timeout); out.Terminal != agent.Failed || len(out.Steps) != 1 {
		t.Errorf("a planner that does not take errors: %s after %d steps (%s), want failed at the hover", out.Terminal, len(out.Steps), out.Reason)
	}
	gone := fmt.Errorf("page crashed: %w", agent.ErrBrowserGone)
	if out := run(&errorTaker{replanner{plan: append(agent.Plan{hidden}, plan()...)}}, gone); out.Terminal != agent.Failed || len(out.Steps) != 1 {
		t.Errorf("the page's death: %s after %d steps (%s), want the attempt ended", out.Terminal, len(out.Steps), out.Reason)
	}
}

// failsForever proposes the same failing action until told to stop.
type failsForever struct {
	a     agent.Action
	calls int
}

func (p *failsForever) Replans() bool     { return true }
func (p *failsForever) TakesErrors() bool { return true }
func (p *failsForever) Next(context.Context, agent.Sample, []agent.Step) (agent.Proposal, error) {
	p.calls++
	return agent.Proposal{Action: p.a}, nil
}

// TestTheBudgetBoundsAnAgentThatKeepsFailing: failures do not end an error-taker's attempt,
// but its action budget does: it ends exhausted.
func TestTheBudgetBoundsAnAgentThatKeepsFailing(t *testing.T) {
	p := &failsForever{a: agent.Action{ID: "hidden", Description: "Hover the hidden menu", Kind: agent.ActHover, Target: agent.Target{Role: "button", Name: "Reserve slot"}}}
	clock := &fakeClock{t: time.Unix(0, 0)}
	x := &agent.Executor{Policy: harness.Policy{}, Now: clock.now, Sleep: clock.sleep}
	page := &fakePage{controls: controls(), actErr: map[string]error{"hover": errors.New("Timeout 5000ms exceeded")}}
	cfg := agent.DefaultConfig()
	out := x.Run(context.Background(), page, agent.Job{Env: &fakeLab{}, Planner: p, Config: cfg}, agent.Hooks{})
	if out.Terminal != agent.Exhausted || len(out.Steps) != cfg.Budget+1 || p.calls > cfg.Budget+2 {
		t.Errorf("terminal %s after %d steps and %d proposals (%s); want exhausted at the budget of %d", out.Terminal, len(out.Steps), p.calls, out.Reason, cfg.Budget)
	}
}
