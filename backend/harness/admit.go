package harness

import (
	"fmt"

	"observatory/backend/agent"
)

// Admit decides whether the proposed action may run now. grounding is the observation the
// proposal was made on; fresh is the one taken immediately before acting. spent and budget
// count actions. A commit runs only when the page still matches its grounding.
func Admit(a agent.Action, grounding, fresh agent.Sample, spent, budget int) agent.Decision {
	d := agent.Decision{Class: Classify(a), Fingerprint: Fingerprint(fresh, a.Target)}
	switch {
	case spent >= budget:
		d.Admission = agent.Deny
		d.Reason = fmt.Sprintf("action budget spent: %d of %d actions used", spent, budget)
	case d.Class == agent.ClassCommit && Fingerprint(grounding, a.Target) != d.Fingerprint:
		d.Admission = agent.Hold
		d.Reason = "the page changed since the action was planned (URL, dialog or form values differ); re-observe and re-plan before committing"
	case d.Class == agent.ClassCommit:
		d.Admission = agent.Allow
		d.Reason = "commit: the page still matches the state it was planned on"
	default:
		d.Admission = agent.Allow
		d.Reason = fmt.Sprintf("%s action within budget (%d of %d used)", d.Class, spent, budget)
	}
	return d
}
