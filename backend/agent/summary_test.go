package agent

import "testing"

func TestStepSummary(t *testing.T) {
	act := Action{ID: "save", Description: "Save", Kind: ActSubmit, Target: Target{Role: "button", Name: "Save"}}
	sum := func(edit func(*StepSummary)) StepSummary {
		s := StepSummary{Index: 3, Description: "Save", Kind: ActSubmit, Target: "button[Save]", Class: ClassCommit, Admission: Hold, StartMS: 120, DurationMS: 30, Shot: "a.jpg"}
		edit(&s)
		return s
	}
	base := Step{Index: 3, Action: act, Decision: Decision{Class: ClassCommit, Admission: Hold, Reason: "changed"},
		StartMS: 120, DurationMS: 30, Before: Sample{Screenshot: "b.jpg"}, After: Sample{Screenshot: "a.jpg"}}
	done := []ModelTurn{{Calls: []ModelCall{{Name: "read_page_text", Outcome: "answered"}}}, {Calls: []ModelCall{{Name: DoneCall, Outcome: CallProposed}}}}
	tests := []struct {
		name string
		edit func(*Step)
		want StepSummary
	}{
		{"the screenshot after", func(*Step) {}, sum(func(*StepSummary) {})},
		{"the one before when none after", func(s *Step) { s.After.Screenshot = "" }, sum(func(s *StepSummary) { s.Shot = "b.jpg" })},
		{"an error", func(s *Step) { s.Error = "no match" }, sum(func(s *StepSummary) { s.Failed = true })},
		{"a done call that became the action", func(s *Step) { s.ModelTurns = done }, sum(func(s *StepSummary) { s.Turns, s.SaidDone = 2, true })},
		{"a done call refused", func(s *Step) { s.ModelTurns = []ModelTurn{{Calls: []ModelCall{{Name: DoneCall, Outcome: "refused"}}}} },
			sum(func(s *StepSummary) { s.Turns = 1 })},
		{"a secret typed", func(s *Step) {
			s.Action = Action{Description: "Type the password", Kind: ActFill, Target: Target{Label: "Password"}, Value: "hunter2", Secret: true}
		}, sum(func(s *StepSummary) {
			s.Description, s.Kind, s.Target, s.Value = "Type the password", ActFill, `label "Password"`, Mask
		})},
		{"a refused save and a page that changed nothing", func(s *Step) {
			s.Decision.Admission = Allow
			s.Requests = []Request{{Method: "POST", Status: 409}, {Method: "GET", Failure: "net::ERR_ABORTED"}, {Method: "GET", Status: 200}}
		}, sum(func(s *StepSummary) { s.Admission, s.FailedRequests, s.Unchanged = Allow, 2, true })},
		{"an action that changed the page", func(s *Step) { s.Decision.Admission, s.Distance = Allow, 0.2 },
			sum(func(s *StepSummary) { s.Admission = Allow })},
	}
	for _, tt := range tests {
		s := base
		tt.edit(&s)
		if got := s.Summary(); got != tt.want {
			t.Errorf("%s: Summary() = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
