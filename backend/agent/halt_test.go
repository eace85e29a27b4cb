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

// TestStoppingMidCommitReconciles stops an attempt with the kill switch while its send is in
// flight (the verify is waiting): the commit is ambiguous until the app's store is asked, and
// the look-up, recorded as a step of its own, settles it. Nothing is sent again.
func TestStoppingMidCommitReconciles(t *testing.T) {
	tests := []struct {
		name    string
		found   int
		outcome string
		says    string
	}{
		{"nothing landed", 0, agent.ReconciledFailed, "nothing landed"},
		{"landed once", 1, agent.ReconciledCompleted, "the commit landed"},
		{"landed twice", 2, agent.ReconciledDuplicate, "1 duplicate(s) are a side effect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := &mailPage{}
			env := &mailEnv{page: page, done: func(*mailEnv) bool { return false }, found: []int{tt.found}}
			ctx, stop := context.WithCancelCause(context.Background())
			clock := &fakeClock{t: time.Unix(0, 0)}
			x := &agent.Executor{Policy: harness.Policy{}, Now: clock.now, Sleep: clock.sleep}
			checks := 0
			out := x.Run(ctx, page, agent.Job{Env: env, Planner: planner.Scripted(mailPlan()), Config: agent.DefaultConfig()},
				agent.Hooks{Check: func(agent.Check) {
					if checks++; checks == 2 {
						stop(agent.ErrStopped)
					}
				}})
			if out.Terminal != agent.Cancelled || !strings.Contains(out.Reason, "ambiguous until reconciled") || !strings.Contains(out.Reason, tt.says) {
				t.Fatalf("terminal %s (%s), want cancelled, reconciled: %s", out.Terminal, out.Reason, tt.says)
			}
			last := out.Steps[len(out.Steps)-1]
			if last.Action.ID != "reconcile" || last.Reconciliation == nil || last.Reconciliation.Outcome != tt.outcome || last.Reconciliation.Retry != nil {
				t.Fatalf("last step %+v, want the look-up with outcome %s and no retry", last, tt.outcome)
			}
			if len(page.sent) != 1 || page.retried != 0 {
				t.Errorf("sent %v, retried %d: a stopped attempt sends nothing again", page.sent, page.retried)
			}
		})
	}
}

// TestStoppingWithoutALookUpKeepsCancelled stops the same send under the naive policy: no
// look-up is made, the attempt is cancelled, and the final state's verdicts settle it later.
func TestStoppingWithoutALookUpKeepsCancelled(t *testing.T) {
	page := &mailPage{}
	env := &mailEnv{page: page, done: func(*mailEnv) bool { return false }, found: []int{1}}
	ctx, stop := context.WithCancelCause(context.Background())
	clock := &fakeClock{t: time.Unix(0, 0)}
	x := &agent.Executor{Policy: harness.Off{}, Now: clock.now, Sleep: clock.sleep}
	out := x.Run(ctx, page, agent.Job{Env: env, Planner: planner.Scripted(mailPlan()), Config: agent.DefaultConfig()},
		agent.Hooks{Check: func(agent.Check) { stop(agent.ErrStopped) }})
	if out.Terminal != agent.Cancelled || env.looked != 0 || !strings.Contains(out.Reason, "stopped by the kill switch") {
		t.Fatalf("terminal %s (%s), %d look-ups; want cancelled by the kill switch without one", out.Terminal, out.Reason, env.looked)
	}
}
