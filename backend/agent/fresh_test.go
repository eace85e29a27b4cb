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
// signed-in account becomes bob once the page does what switchOn names: "resolve Save" while
// Save is resolved, "hover Save" when the pointer reaches it.
type stalePage struct {
	*fakePage
	clock      *fakeClock
	resolveFor time.Duration
	switchOn   string
	switched   bool
}

func (p *stalePage) Resolve(ctx context.Context, t agent.Target) error {
	p.clock.t = p.clock.t.Add(p.resolveFor)
	p.switched = p.switched || p.switchOn == "resolve "+t.Name
	return p.fakePage.Resolve(ctx, t)
}

func (p *stalePage) Act(ctx context.Context, a agent.Action) error {
	p.switched = p.switched || p.switchOn == string(a.Kind)+" "+a.Target.Name
	return p.fakePage.Act(ctx, a)
}

func (p *stalePage) Observe(ctx context.Context) (agent.Sample, error) {
	s, err := p.fakePage.Observe(ctx)
	s.Principal = "alice"
	if p.switched {
		s.Principal = "bob"
	}
	return s, err
}

// admitOnly is the harness's admission without its revalidation on approach.
var admitOnly = policyFunc(harness.Admit)

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
		{"re-taken, another account", 1000, "resolve Save", agent.Rejected, 2},
		// No limit: nothing is re-taken, and the submit acts on the stale observation.
		{"no limit", 0, "resolve Save", agent.Completed, 3},
	}
	for _, tt := range tests {
		clock := &fakeClock{t: time.Unix(0, 0)}
		page := &stalePage{fakePage: &fakePage{controls: controls()}, clock: clock, resolveFor: 3 * time.Second, switchOn: tt.switchOn}
		x := &agent.Executor{Policy: admitOnly, Now: clock.now, Sleep: clock.sleep}
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

// TestCommitIsRecheckedWithThePointerOnIt: the harness moves the pointer onto a commit's
// control and decides again on the page as it then is; a page that reacts by switching the
// account holds the commit, which never runs. The naive executor clicks on.
func TestCommitIsRecheckedWithThePointerOnIt(t *testing.T) {
	tests := []struct {
		name     string
		policy   agent.Policy
		switchOn string
		want     agent.Terminal
		acted    string
		reason   string
	}{
		{"unchanged", harness.Policy{}, "", agent.Completed, "hover Reserve slot,click Reserve slot,fill Title,hover Save,submit Save", "re-checked with the pointer on the control"},
		{"the account switches on hover", harness.Policy{}, "hover Save", agent.Rejected, "hover Reserve slot,click Reserve slot,fill Title,hover Save", `changed from "alice" to "bob"`},
		{"naive: no re-check", harness.Off{}, "hover Save", agent.Completed, "click Reserve slot,fill Title,submit Save", "the harness is off"},
	}
	for _, tt := range tests {
		clock := &fakeClock{t: time.Unix(0, 0)}
		page := &stalePage{fakePage: &fakePage{controls: controls()}, clock: clock, switchOn: tt.switchOn}
		x := &agent.Executor{Policy: tt.policy, Now: clock.now, Sleep: clock.sleep}
		out := x.Run(context.Background(), page, agent.Job{Env: &fakeLab{doneAt: 1}, Planner: planner.Scripted(plan()), Config: agent.DefaultConfig()}, agent.Hooks{})
		submit := out.Steps[2]
		if out.Terminal != tt.want || strings.Join(page.acted, ",") != tt.acted || !strings.Contains(submit.Decision.Reason, tt.reason) {
			t.Errorf("%s: %s (%s) after %v, submit decided %q; want %s after %s, decided %q", tt.name, out.Terminal, out.Reason,
				page.acted, submit.Decision.Reason, tt.want, tt.acted, tt.reason)
		}
		if f := submit.Decision.Observed; f == nil || f.Principal != submit.Before.Principal || f.AtMS != submit.Before.AtMS {
			t.Errorf("%s: the submit's fingerprint %+v is not its before sample's (%s at %d ms)", tt.name, f, submit.Before.Principal, submit.Before.AtMS)
		}
	}
}
