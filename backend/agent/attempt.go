package agent

import "time"

// Terminal is how an attempt ended. Every attempt ends in exactly one.
type Terminal string

// Terminal states. Completed needs authoritative proof; anything short of it is one of the
// others, never "partly complete".
const (
	Completed Terminal = "completed" // the completion gate proved the intended effect
	Failed    Terminal = "failed"    // evidence shows the effect did not happen
	Rejected  Terminal = "rejected"  // policy or the app refused before the effect
	Exhausted Terminal = "exhausted" // the action budget ran out first
	Cancelled Terminal = "cancelled" // the user stopped it, or the run was abandoned
	Ambiguous Terminal = "ambiguous" // the effect may have happened; evidence is lost or contradictory
)

// Valid reports whether t is one of the terminal states.
func (t Terminal) Valid() bool {
	switch t {
	case Completed, Failed, Rejected, Exhausted, Cancelled, Ambiguous:
		return true
	}
	return false
}

// Event is one app event from a lab's ordered log. Type and Data are lab-specific; the lab's
// transition function gives them meaning.
type Event struct {
	Seq  int               `json:"seq"`
	AtMS int64             `json:"at_ms"`
	Type string            `json:"type"`
	Data map[string]string `json:"data,omitempty"`
}

// Verdict is one yes/no call with the evidence behind it.
type Verdict struct {
	Done     bool   `json:"done"`
	Evidence string `json:"evidence"`
}

// Condition is one named completion condition of the gate.
type Condition struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Verdict
}

// Gate is the completion gate's result: done only when every condition holds.
type Gate struct {
	Done       bool        `json:"done"`
	Conditions []Condition `json:"conditions"`
}

// NewGate builds a gate result from its conditions.
func NewGate(conds []Condition) Gate {
	done := len(conds) > 0
	for _, c := range conds {
		done = done && c.Done
	}
	return Gate{Done: done, Conditions: conds}
}

// Verdicts are the four ways of deciding whether an attempt worked.
type Verdicts struct {
	// SavedAsAsked is ground truth from the lab's authoritative store.
	SavedAsAsked Verdict `json:"saved_as_asked"`
	// Notice trusts the success notice alone.
	Notice Verdict `json:"notice"`
	// Parallax is the earlier agent's completion rule, ported.
	Parallax Verdict `json:"parallax"`
	// Gate is the completion gate.
	Gate Gate `json:"gate"`
}

// Step is one executed action with everything recorded about it: the proposal, the policy
// decision, the page before and after, and what came of it.
type Step struct {
	Index    int      `json:"index"`
	Action   Action   `json:"action"`
	Decision Decision `json:"decision"`
	// Resolved is the accessible name that actually matched (the alias, when it was used).
	Resolved string  `json:"resolved,omitempty"`
	Before   Sample  `json:"before"`
	After    Sample  `json:"after"`
	Distance float64 `json:"distance"` // role-set Jaccard distance between Before and After
	StartMS  int64   `json:"start_ms"`
	// DurationMS covers acting and, for verify, waiting.
	DurationMS int64 `json:"duration_ms"`
	// Error says what went wrong, empty when the step did what it was asked.
	Error string `json:"error,omitempty"`
}

// Attempt is one run of a plan against a lab, from start to its terminal state.
type Attempt struct {
	Slug     string   `json:"attempt"`
	Title    string   `json:"title"`
	Task     Task     `json:"task"`
	Config   Config   `json:"config"`
	Plan     Plan     `json:"plan"`
	Steps    []Step   `json:"steps"`
	Events   []Event  `json:"events"`
	Terminal Terminal `json:"terminal"`
	// Reason explains the terminal state in a sentence.
	Reason   string    `json:"reason"`
	Verdicts Verdicts  `json:"verdicts"`
	Started  time.Time `json:"started"`
	// Video is the recorded video's path relative to the run's media folder, if recorded.
	Video string `json:"video,omitempty"`
	// Trace is the Playwright trace's path relative to the run's media folder, if recorded.
	Trace string `json:"trace,omitempty"`
}

// Wrong names the checks ("notice", "parallax", "gate") whose call disagrees with
// saved-as-asked, the ground truth from the lab's store.
func (v Verdicts) Wrong() []string {
	var wrong []string
	truth := v.SavedAsAsked.Done
	for _, c := range []struct {
		name string
		done bool
	}{{"notice", v.Notice.Done}, {"parallax", v.Parallax.Done}, {"gate", v.Gate.Done}} {
		if c.done != truth {
			wrong = append(wrong, c.name)
		}
	}
	return wrong
}
