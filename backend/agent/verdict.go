package agent

// Verdict is one yes/no call with the evidence behind it. Unconfirmed, when set, says why the
// oracle could not answer at all (connection refused, a timeout, an SQL error): the call is
// then "could not confirm", never done.
type Verdict struct {
	Done        bool   `json:"done"`
	Evidence    string `json:"evidence"`
	Unconfirmed string `json:"unconfirmed,omitempty"`
	// Check is the condition as the task file wrote it (a CEL expression), shown on demand
	// beside the evidence's words; empty for checks written in code.
	Check string `json:"check,omitempty"`
}

// Unconfirmed returns the verdict of a check that could not be made, and why.
func Unconfirmed(why string) Verdict {
	return Verdict{Evidence: "could not confirm: " + why, Unconfirmed: why}
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

// NewGate builds a gate result from its conditions; no conditions is never done.
func NewGate(conds []Condition) Gate {
	done := len(conds) > 0
	for _, c := range conds {
		done = done && c.Done
	}
	return Gate{Done: done, Conditions: conds}
}

// FirstUnmet is the first condition that does not hold, or false when all do.
func (g Gate) FirstUnmet() (Condition, bool) {
	for _, c := range g.Conditions {
		if !c.Done {
			return c, true
		}
	}
	return Condition{}, false
}

// Signal is one named verdict beside the gate: the ground truth, or one of the cheaper
// checks a task declares (a success notice, Parallax's rule) so they can be marked wrong.
type Signal struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Verdict
}

// Verdicts are every way of deciding whether an attempt worked: the ground truth, the
// signals the task declares, and the completion gate. The columns of an attempts table come
// from them, never from one task's words.
type Verdicts struct {
	// Truth is ground truth from the app's authoritative state.
	Truth Signal `json:"truth"`
	// Signals are the weaker checks, in the task's order.
	Signals []Signal `json:"signals"`
	// Gate is the completion gate.
	Gate Gate `json:"gate"`
}

// GateID names the gate among the checks Wrong reports.
const GateID = "gate"

// GateAsTruthLabel is the label of the ground truth of a task that declares none: the
// completion gate stands in for it.
const GateAsTruthLabel = "ground truth (= gate)"

// TruthKnown reports whether the ground truth made its call: "could not confirm" is no call,
// neither yes nor no.
func (v Verdicts) TruthKnown() bool { return v.Truth.Unconfirmed == "" }

// Wrong names the checks (signal IDs, and GateID) whose call disagrees with the ground truth.
// Against a truth that could not be confirmed nothing is wrong, and neither is a signal that
// could not be confirmed itself.
func (v Verdicts) Wrong() []string {
	if !v.TruthKnown() {
		return nil
	}
	var wrong []string
	for _, s := range v.Signals {
		if s.Unconfirmed == "" && s.Done != v.Truth.Done {
			wrong = append(wrong, s.ID)
		}
	}
	if v.Gate.Done != v.Truth.Done {
		wrong = append(wrong, GateID)
	}
	return wrong
}

// Signal returns the signal with the given ID.
func (v Verdicts) Signal(id string) (Signal, bool) {
	for _, s := range v.Signals {
		if s.ID == id {
			return s, true
		}
	}
	return Signal{}, false
}
