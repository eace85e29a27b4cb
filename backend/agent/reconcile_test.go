package agent_test

import (
	"context"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/harness"
	"observatory/backend/planner"
)

// allowAll is a policy without a harness: it admits everything and does not reconcile.
var allowAll = policyFunc(func(req agent.PolicyRequest) agent.Decision {
	c := harness.Classify(req.Action, req.Fresh)
	return agent.Decision{Class: c.Class, Contract: c.Contract, Admission: agent.Allow, Reason: "off"}
})

func TestAmbiguousSendsAreReconciled(t *testing.T) {
	lookedUpOnce := func(e *mailEnv) bool { return e.looked > 0 && e.found[0] == 1 }
	retried := func(e *mailEnv) bool { return e.page.retried > 0 }
	sentTwice := func(e *mailEnv) bool { return len(e.page.sent) == 2 }
	noDone := func(*mailEnv) bool { return false }
	tests := []struct {
		name      string
		policy    agent.Policy
		env       mailEnv
		retries   int
		want      agent.Terminal
		reasonHas string
		outcome   string // the last reconciliation's outcome, "" for none
		sent      int
		retriedN  int
		steps     int
	}{
		{"found once: completed", harness.Policy{}, mailEnv{done: lookedUpOnce, ambiguous: true, found: []int{1}}, 1,
			agent.Completed, "holds operation op-1 once", agent.ReconciledCompleted, 1, 0, 4},
		{"not found: retried once with the same id", harness.Policy{}, mailEnv{done: retried, ambiguous: true, found: []int{0}}, 1,
			agent.Completed, "every completion condition", agent.ReconciledRetry, 1, 1, 6},
		{"not found, no retry left: failed, safe to retry", harness.Policy{}, mailEnv{done: noDone, ambiguous: true, found: []int{0}}, 0,
			agent.Failed, "safe to retry", agent.ReconciledFailed, 1, 0, 4},
		{"not found after the retry either", harness.Policy{}, mailEnv{done: noDone, ambiguous: true, found: []int{0, 0}}, 1,
			agent.Failed, "safe to retry", agent.ReconciledFailed, 1, 1, 6},
		{"found twice: the duplicate is a side effect", harness.Policy{}, mailEnv{done: noDone, ambiguous: true, found: []int{2}}, 1,
			agent.Failed, "1 duplicate(s) are a side effect", agent.ReconciledDuplicate, 1, 0, 4},
		{"no harness: retried blindly", allowAll, mailEnv{done: sentTwice, ambiguous: true, found: []int{1}}, 1,
			agent.Completed, "every completion condition", "", 2, 0, 6},
		{"no harness, no retry left", allowAll, mailEnv{done: noDone, ambiguous: true, found: []int{1}}, 0,
			agent.Ambiguous, "could not confirm", "", 1, 0, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := &mailPage{}
			env := tt.env
			env.page = page
			cfg := agent.DefaultConfig()
			cfg.Retries = tt.retries
			clock := &fakeClock{}
			x := &agent.Executor{Policy: tt.policy, Now: clock.now, Sleep: clock.sleep}
			out := x.Run(context.Background(), page, agent.Job{Env: &env, Planner: planner.Scripted(mailPlan()), Config: cfg}, agent.Hooks{})
			if out.Terminal != tt.want || !strings.Contains(out.Reason, tt.reasonHas) {
				t.Fatalf("%s (%s), want %s with %q", out.Terminal, out.Reason, tt.want, tt.reasonHas)
			}
			if len(page.sent) != tt.sent || page.retried != tt.retriedN || len(out.Steps) != tt.steps {
				t.Errorf("sent %d, retried %d, %d steps; want %d, %d, %d", len(page.sent), page.retried, len(out.Steps), tt.sent, tt.retriedN, tt.steps)
			}
			var rec *agent.Reconciliation
			for _, s := range out.Steps {
				if s.Reconciliation != nil {
					rec = s.Reconciliation
				}
			}
			switch {
			case tt.outcome == "" && rec != nil:
				t.Errorf("reconciled without a harness: %+v", rec)
			case tt.outcome != "" && (rec == nil || rec.Outcome != tt.outcome || rec.Query == "" || rec.OpID != "op-1"):
				t.Errorf("the verify step's reconciliation is %+v, want the last outcome %q with its query", rec, tt.outcome)
			}
		})
	}
}

func TestARepeatedSendIsHeldAndTheAttemptGoesOn(t *testing.T) {
	p := mailPlan()
	twice := agent.Plan{p[0], p[1], p[2], p[2], p[3]}
	page := &mailPage{}
	x := &agent.Executor{Policy: harness.Policy{}}
	out := x.Run(context.Background(), page, agent.Job{Env: &mailEnv{page: page, done: sentOnceToAlice},
		Planner: planner.Scripted(twice), Config: agent.DefaultConfig()}, agent.Hooks{})
	if out.Terminal != agent.Completed || len(page.sent) != 1 {
		t.Fatalf("%s (%s), sent %v; want completed with one send", out.Terminal, out.Reason, page.sent)
	}
	if d := out.Steps[3].Decision; d.Admission != agent.Hold || !d.Continue || !strings.Contains(d.Reason, "already succeeded") {
		t.Errorf("the second send's decision is %+v, want a hold that goes on", d)
	}
}

// TestAFailedAttemptNamesTheHoldItWentOnFrom sends twice and then finds the gate never
// holds: the attempt's reason names the held second send with its trace step number, not
// only the failure that ended it.
func TestAFailedAttemptNamesTheHoldItWentOnFrom(t *testing.T) {
	p := mailPlan()
	twice := agent.Plan{p[0], p[1], p[2], p[2], p[3]}
	page := &mailPage{}
	cfg := agent.DefaultConfig()
	cfg.DeadlineMS = 100
	out := (&agent.Executor{Policy: harness.Policy{}}).Run(context.Background(), page, agent.Job{
		Env: &mailEnv{page: page, done: func(*mailEnv) bool { return false }}, Planner: planner.Scripted(twice), Config: cfg}, agent.Hooks{})
	if out.Terminal != agent.Failed || !strings.Contains(out.Reason, "earlier, step 4 (Send the message) was held: this irreversible action already succeeded on this page at step 3") {
		t.Errorf("%s: %s; want failed, naming the hold at step 4", out.Terminal, out.Reason)
	}
}

func TestGuidanceReachesTheHistory(t *testing.T) {
	p := mailPlan()
	reads := agent.Plan{p[0], {ID: "look", Kind: agent.ActWaitFor, Target: agent.Target{Role: "button", Name: "Send"}}}
	reads = append(reads, reads[1], reads[1], p[3])
	page := &mailPage{}
	x := &agent.Executor{Policy: harness.Policy{}}
	checks := 0 // the gate holds from the check after the baseline on
	out := x.Run(context.Background(), page, agent.Job{Env: &mailEnv{page: page, done: func(*mailEnv) bool { checks++; return checks > 1 }},
		Planner: planner.Scripted(reads), Config: agent.DefaultConfig()}, agent.Hooks{})
	if g := out.Steps[3].Guidance; !strings.Contains(g, "nothing is changing") || out.Steps[2].Guidance != "" {
		t.Errorf("guidance %q after the third read (%q after the second), want it only after the third", g, out.Steps[2].Guidance)
	}
}
