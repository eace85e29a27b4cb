package harness

import (
	"fmt"

	"observatory/backend/agent"
)

// Admit decides whether the proposed action may run now, from what it is: the budget, and
// for commits whether the page still matches the observation the action was planned on.
// grounding is that observation; fresh the one taken immediately before acting; spent and
// budget count actions. Repeats, review and approval are the Policy's, on top.
func Admit(a agent.Action, grounding, fresh agent.Sample, spent, budget int) agent.Decision {
	c := Classify(a)
	d := agent.Decision{Class: c.Class, Contract: c.Contract, Why: c.Why, Key: Key(a, fresh), Fingerprint: Fingerprint(fresh, a.Target)}
	switch {
	case spent >= budget:
		d.Admission = agent.Deny
		d.Reason = fmt.Sprintf("action budget spent: %d of %d actions used", spent, budget)
	case c.Class.Commits() && Fingerprint(grounding, a.Target) != d.Fingerprint:
		d.Admission = agent.Hold
		d.Reason = "the page changed since the action was planned (URL, dialog or form values differ); re-observe and re-plan before committing"
	case c.Class.Commits():
		d.Admission = agent.Allow
		d.Reason = "commit: the page still matches the state it was planned on"
	default:
		d.Admission = agent.Allow
		d.Reason = fmt.Sprintf("%s action within budget (%d of %d used)", d.Class, spent, budget)
	}
	return d
}

// HoldRepeat holds d's action, and lets the attempt go on without it, when it is irreversible
// and the same call already succeeded on this page in history: the one hold admission makes
// for repeating. A denial stands.
func HoldRepeat(d agent.Decision, history []agent.Step) agent.Decision {
	if d.Admission == agent.Deny || d.Contract != agent.ContractIrreversible {
		return d
	}
	for i := len(history) - 1; i >= 0; i-- {
		h := history[i]
		if h.Decision.Key == d.Key && h.Decision.Admission == agent.Allow && h.Error == "" {
			d.Admission, d.Continue = agent.Hold, true
			d.Reason = fmt.Sprintf("this irreversible action already succeeded on this page at step %d; it is not run again", h.Index+1)
			return d
		}
	}
	return d
}
