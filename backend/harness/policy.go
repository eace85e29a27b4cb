package harness

import (
	"context"
	"strings"

	"observatory/backend/agent"
)

// Policy is the harness as the executor's agent.Policy. It classifies and admits each
// proposal (Admit), holds an irreversible action that already succeeded on the page
// (HoldRepeat), has irreversible actions reviewed and approved when the attempt's safeguards
// say so, re-checks every commit with the pointer on its control, reconciles ambiguous
// commits against the app's store, and guides a planner that repeats itself. It never fails
// to decide.
type Policy struct {
	// Model is the model reviewer, for safeguards that name one; nil means none is
	// configured, so such a review is unavailable.
	Model Reviewer
}

var (
	_ agent.Policy       = Policy{}
	_ agent.Reconciling  = Policy{}
	_ agent.Revalidating = Policy{}
	_ agent.Guide        = Policy{}
)

// Decide admits req's action and holds an irreversible one the page's own instructions led
// to (see Injected), then, for an irreversible action that may run, reviews it and asks for
// approval as the attempt's safeguards say. An upload always waits for the user's approval.
func (p Policy) Decide(ctx context.Context, req agent.PolicyRequest) (agent.Decision, error) {
	d := holdInjected(HoldRepeat(Admit(req), req.History), req)
	if d.Admission == agent.Allow && req.Action.Kind == agent.ActEvaluate {
		return scripts(d, req.Safeguards), nil
	}
	if d.Admission != agent.Allow || d.Contract != agent.ContractIrreversible {
		return d, nil
	}
	g := req.Safeguards
	if g != nil && g.Review != nil {
		d = review(ctx, d, ReviewRequest{Spec: *g.Review, Action: req.Action, Contract: d.Contract, Class: d.Class, Page: req.Fresh}, p.Model, standing(req))
		if d.Admission != agent.Allow {
			return d, nil
		}
	}
	switch {
	case g != nil && g.Approval.Covers(d.Class):
		d.AskUser = true
		d.Reason += "; it runs only once the user approves it"
	case req.Action.Kind == agent.ActUpload:
		d.AskUser = true
		d.Reason += "; an upload cannot be taken back, so it runs only once the user approves it"
	}
	return d, nil
}

// scripts admits an agent's own script as the task's safeguards.scripts says: run it, ask
// the user first (the default), or hold it.
func scripts(d agent.Decision, g *agent.Safeguards) agent.Decision {
	switch g.ScriptsPolicy() {
	case agent.ScriptsAllow:
		d.Reason += "; the task's safeguards allow the agent's scripts"
	case agent.ScriptsDeny:
		d.Admission = agent.Hold
		d.Reason += "; the task's safeguards deny the agent's scripts (safeguards.scripts: deny)"
	default:
		d.AskUser = true
		d.Reason += "; an agent's own script runs only once the user approves it (safeguards.scripts: ask, the default)"
	}
	return d
}

// Revalidates is true: every commit is re-checked with the pointer on its control just
// before it acts, so a page that reacts to it (a price re-quoted on hover) holds it.
func (Policy) Revalidates() bool { return true }

// Reconciles is true: an ambiguous commit is looked up in the app's store before any retry.
func (Policy) Reconciles() bool { return true }

// Guidance comments on a repeated call (see the package-level Guidance) and on regions of the
// page the planner cannot read (see Unreadable).
func (Policy) Guidance(history []agent.Step, s agent.Step) string {
	var said []string
	for _, g := range []string{Guidance(history, s), Unreadable(history, s)} {
		if g != "" {
			said = append(said, g)
		}
	}
	return strings.Join(said, "; ")
}

// Off is the naive column: no harness. It classifies each action for the record and admits
// everything within the budget: no holds, no review, no approval, and ambiguous commits are
// retried blindly.
type Off struct{}

var _ agent.Policy = Off{}

// Decide admits req's action unless the budget is spent.
func (Off) Decide(_ context.Context, req agent.PolicyRequest) (agent.Decision, error) {
	c := Classify(req.Action, req.Fresh)
	seen := Observe(req.Fresh, req.Action.Target)
	d := agent.Decision{Class: c.Class, Contract: c.Contract, Why: c.Why, Key: Key(req.Action, req.Fresh),
		Fingerprint: seen.Hash, Observed: &seen, Risk: RiskOf(c),
		Admission: agent.Allow, Reason: "the harness is off: every action within the budget runs"}
	if req.Spent >= req.Budget {
		d.Admission, d.Reason = agent.Deny, "action budget spent"
	}
	return d, nil
}
