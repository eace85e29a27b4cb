package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/harness"
	"observatory/backend/planner"
)

// stalePage is a fakePage whose Resolve takes resolveFor on the test's clock, and whose
// signed-in account becomes bob while the control named switchOn is being resolved.
type stalePage struct {
	*fakePage
	clock      *fakeClock
	resolveFor time.Duration
	switchOn   string
	switched   bool
}

func (p *stalePage) Resolve(ctx context.Context, t agent.Target) error {
	p.clock.t = p.clock.t.Add(p.resolveFor)
	p.switched = p.switched || (p.switchOn != "" && t.Name == p.switchOn)
	return p.fakePage.Resolve(ctx, t)
}

func (p *stalePage) Observe(ctx context.Context) (agent.Sample, error) {
	s, err := p.fakePage.Observe(ctx)
	s.Principal = "alice"
	if p.switched {
		s.Principal = "bob"
	}
	return s, err
}

// TestStaleObservationIsRetakenBeforeACommit: an observation older than the task's freshness
// limit is re-taken before the commit acts, and the commit is decided again on it.
func TestStaleObservationIsRetakenBeforeACommit(t *testing.T) {
	tests := []struct {
		name     string
		fresh    int
		switchOn string
		want     agent.Terminal
		acts     int
	}{
		// Resolving takes 3 s; with a 1 s limit, the submit's observation is re-taken.
		{"re-taken, unchanged", 1000, "", agent.Completed, 3},
		// The account changes while Save is resolved: the re-taken observation shows it.
		{"re-taken, another account", 1000, "Save", agent.Rejected, 2},
		// No limit: nothing is re-taken, and the submit acts on the stale observation.
		{"no limit", 0, "Save", agent.Completed, 3},
	}
	for _, tt := range tests {
		clock := &fakeClock{t: time.Unix(0, 0)}
		page := &stalePage{fakePage: &fakePage{controls: controls()}, clock: clock, resolveFor: 3 * time.Second, switchOn: tt.switchOn}
		x := &agent.Executor{Policy: harness.Policy{}, Now: clock.now, Sleep: clock.sleep}
		out := x.Run(context.Background(), page, agent.Job{Env: &fakeLab{doneAt: 1}, Planner: planner.Scripted(plan()), Config: agent.DefaultConfig(),
			Authority: &agent.Authority{FreshnessMS: tt.fresh}}, agent.Hooks{})
		if out.Terminal != tt.want || len(page.acted) != tt.acts {
			t.Errorf("%s: %s (%s) after %v, want %s after %d actions", tt.name, out.Terminal, out.Reason, page.acted, tt.want, tt.acts)
			continue
		}
		submit := out.Steps[2].Decision
		if retaken := strings.Contains(submit.Reason, "re-taken"); retaken != (tt.fresh > 0) {
			t.Errorf("%s: submit decided %q; re-taken %v, want %v", tt.name, submit.Reason, retaken, tt.fresh > 0)
		}
	}
}
