package ledger

import (
	"fmt"
	"strings"

	"observatory/backend/agent"
)

// Entry is one row of the ledger: one step of an attempt.
type Entry struct {
	// Step counts from 1.
	Step int `json:"step"`
	// Intent is what the action is for: the step's description.
	Intent string `json:"intent"`
	Action string `json:"action"`
	// Target is the resource the action targeted: the control that matched, or the value
	// (an address) of an action without one.
	Target string `json:"target"`
	// Principal is the signed-in account the action was decided under; empty when the task
	// declares none.
	Principal string `json:"principal"`
	// ObservedMS is when the observation the decision was taken on was made, in milliseconds
	// since the attempt started; Fingerprint is that observation's.
	ObservedMS  int64  `json:"observed_ms"`
	Fingerprint string `json:"fingerprint"`
	Class       string `json:"class"`
	Risk        string `json:"risk"`
	// Decision is policy's admission and why.
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
	// Result is what came of the action: done, failed (and why), or not run; for a verify
	// step, how the attempt ended when it was the last.
	Result string `json:"result"`
	// Verification is how the result was checked: the approvals asked, a reconciliation with
	// the app's store, and for a verify step the completion gate.
	Verification string `json:"verification"`
}

// Of is the ledger of attempt a, one entry per recorded step.
func Of(a agent.Attempt) []Entry {
	out := make([]Entry, len(a.Steps))
	for i, s := range a.Steps {
		d := s.Decision
		e := Entry{Step: s.Index + 1, Intent: s.Action.Description, Action: string(s.Action.Kind), Target: target(s),
			Principal: s.Before.Principal, ObservedMS: s.Before.AtMS, Fingerprint: d.Fingerprint, Class: string(d.Class),
			Risk: string(d.Risk), Decision: string(d.Admission), Reason: d.Reason, Result: result(a, s, i == len(a.Steps)-1),
			Verification: verification(a, s)}
		if f := d.Observed; f != nil {
			e.Principal, e.ObservedMS = f.Principal, f.AtMS
		}
		out[i] = e
	}
	return out
}

// target is the resource a step's action targeted.
func target(s agent.Step) string {
	switch {
	case s.Resolved != "":
		return s.Action.Target.String() + " → " + s.Resolved
	case !s.Action.Target.IsZero():
		return s.Action.Target.String()
	}
	return s.Action.Value
}

// result says what came of a step's action; last is whether it is the attempt's last step,
// whose verify ends the attempt.
func result(a agent.Attempt, s agent.Step, last bool) string {
	switch {
	case s.Decision.Admission == agent.Hold && s.Decision.Continue:
		return "not run: already done"
	case s.Decision.Admission != agent.Allow:
		return "not run: " + string(s.Decision.Admission)
	case denied(s):
		return "not run: approval " + ended(s.Approvals[len(s.Approvals)-1])
	case s.Error != "":
		return "failed: " + s.Error
	case s.Action.Kind == agent.ActVerify && last && a.Terminal != "":
		return "the attempt ended " + string(a.Terminal)
	case s.Action.Kind == agent.ActVerify:
		return "waited on the gate"
	}
	return "done"
}

// ended says how an approval ended, as its note words it (see agent.Ended); a note from
// before the notes said it (a void approval's, or none) follows the answer's words.
func ended(ap agent.Approval) string {
	words := agent.Ended(ap.Answer, ap.By, "")
	switch {
	case ap.Note == "":
		return words
	case strings.HasPrefix(ap.Note, "approved") || strings.HasPrefix(ap.Note, "denied") || strings.HasPrefix(ap.Note, "held"):
		return ap.Note
	case ap.Answer != agent.AnswerApprove && ap.Answer != agent.AnswerDeny:
		return agent.Ended(ap.Answer, ap.By, ap.Note)
	}
	return words + ", then " + ap.Note
}

// denied reports whether the step's last approval request ended without an approval.
func denied(s agent.Step) bool {
	n := len(s.Approvals)
	return n > 0 && s.Approvals[n-1].Answer != agent.AnswerApprove
}

// verification says how a step's result was checked.
func verification(a agent.Attempt, s agent.Step) string {
	var parts []string
	for _, ap := range s.Approvals {
		p := "approval " + ended(ap)
		if ap.Request.Principal != "" || ap.Request.Amount != "" {
			p += fmt.Sprintf(" (as %q, amount %q)", ap.Request.Principal, ap.Request.Amount)
		}
		if d := ap.Request.Differences(); len(d) > 0 {
			p += "; not as the task asked: " + strings.Join(d, "; ")
		}
		parts = append(parts, p)
		for _, f := range ap.Refused {
			parts = append(parts, fmt.Sprintf("self-approval refused: %s at %d ms (%s)", f.By, f.AtMS, f.Why))
		}
	}
	if r := s.Reconciliation; r != nil {
		parts = append(parts, fmt.Sprintf("reconciled %s: operation %s found %d time(s)", r.Outcome, r.OpID, r.Found))
	}
	if s.Action.Kind == agent.ActVerify {
		g := a.Verdicts.Gate
		if g.Done {
			parts = append(parts, "completion gate done")
		} else if c, ok := g.FirstUnmet(); ok {
			parts = append(parts, fmt.Sprintf("completion gate not done: %s (%s)", c.Label, c.Evidence))
		} else {
			parts = append(parts, "completion gate not done")
		}
	}
	return strings.Join(parts, "; ")
}
