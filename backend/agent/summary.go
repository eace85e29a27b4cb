package agent

// StepSummary is a step without its observations: what a list of an attempt's steps, its
// timeline and its filmstrip show of each one. A long attempt lists by its summaries, and
// only the steps looked at are read whole (the store keeps each step's summary beside it).
type StepSummary struct {
	Index int `json:"index"`
	// Description and Kind are the action's; Target is its target in words (Target.String)
	// and Value its value, masked when it is a secret.
	Description string      `json:"description"`
	Kind        ActionKind  `json:"kind"`
	Target      string      `json:"target,omitempty"`
	Value       string      `json:"value,omitempty"`
	Class       ActionClass `json:"class"`
	Admission   Admission   `json:"admission"`
	StartMS     int64       `json:"start_ms"`
	DurationMS  int64       `json:"duration_ms"`
	// Failed is set when the step ended in an error (its Error is not empty).
	Failed bool `json:"failed,omitempty"`
	// FailedRequests counts the step's requests that failed (see Request.Failed).
	FailedRequests int `json:"failed_requests,omitempty"`
	// Unchanged is set when the step clicked, pressed or submitted without an error and the
	// page read after it as before (no role or name came or went): an action that may have
	// landed nowhere, as a blind click on a drawn board does.
	Unchanged bool `json:"unchanged,omitempty"`
	// Shot is the screenshot that stands for the step: the one after it, else the one before.
	Shot string `json:"shot,omitempty"`
	// Turns counts a model planner's turns that led to the action.
	Turns int `json:"turns,omitempty"`
	// SaidDone is set when a model's done call became the step's action: the model claimed
	// the task complete (which only asks the gate).
	SaidDone bool `json:"said_done,omitempty"`
}

// DoneCall is the name of a model planner's tool call that says the task is complete.
const DoneCall = "done"

// CallProposed is the Outcome of a model's tool call that became the step's action.
const CallProposed = "proposed"

// Summary is the step's summary.
func (s Step) Summary() StepSummary {
	shot := s.After.Screenshot
	if shot == "" {
		shot = s.Before.Screenshot
	}
	act := s.Action.Redacted()
	return StepSummary{Index: s.Index, Description: act.Description, Kind: act.Kind, Target: act.Target.String(), Value: act.Value,
		Class: s.Decision.Class, Admission: s.Decision.Admission,
		StartMS: s.StartMS, DurationMS: s.DurationMS, Failed: s.Error != "", FailedRequests: failedRequests(s.Requests),
		Unchanged: s.unchanged(), Shot: shot, Turns: len(s.ModelTurns), SaidDone: saidDone(s.ModelTurns)}
}

// failedRequests counts the requests of reqs that failed.
func failedRequests(reqs []Request) int {
	n := 0
	for _, r := range reqs {
		if r.Failed() {
			n++
		}
	}
	return n
}

// unchanged reports whether s is an action meant to change the page that was let run and ran
// without an error while the page's roles and names stayed as they were (StepSummary.Unchanged).
func (s Step) unchanged() bool {
	switch s.Action.Kind {
	case ActClick, ActPress, ActSubmit:
		return s.Decision.Admission == Allow && s.Error == "" && !s.Unresolved && s.Distance == 0 && s.Provenance != Observed
	}
	return false
}

// saidDone reports whether one of turns made a done call that became the action.
func saidDone(turns []ModelTurn) bool {
	for _, t := range turns {
		for _, c := range t.Calls {
			if c.Name == DoneCall && c.Outcome == CallProposed {
				return true
			}
		}
	}
	return false
}
