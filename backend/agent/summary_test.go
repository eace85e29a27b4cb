package agent

import "testing"

func TestStepSummary(t *testing.T) {
	act := Action{ID: "save", Description: "Save", Kind: ActSubmit, Target: Target{Role: "button", Name: "Save"}}
	base := Step{Index: 3, Action: act, Decision: Decision{Class: ClassCommit, Admission: Hold, Reason: "changed"},
		StartMS: 120, DurationMS: 30, Before: Sample{Screenshot: "b.jpg"}, After: Sample{Screenshot: "a.jpg"}}
	done := []ModelTurn{{Calls: []ModelCall{{Name: "read_page_text", Outcome: "answered"}}}, {Calls: []ModelCall{{Name: DoneCall, Outcome: CallProposed}}}}
	tests := []struct {
		name string
		edit func(*Step)
		want StepSummary
	}{
		{"the screenshot after", func(*Step) {}, StepSummary{Index: 3, Action: act, Class: ClassCommit, Admission: Hold, StartMS: 120, DurationMS: 30, Shot: "a.jpg"}},
		{"the one before when none after", func(s *Step) { s.After.Screenshot = "" },
			StepSummary{Index: 3, Action: act, Class: ClassCommit, Admission: Hold, StartMS: 120, DurationMS: 30, Shot: "b.jpg"}},
		{"an error", func(s *Step) { s.Error = "no match" },
			StepSummary{Index: 3, Action: act, Class: ClassCommit, Admission: Hold, StartMS: 120, DurationMS: 30, Shot: "a.jpg", Failed: true}},
		{"a done call that became the action", func(s *Step) { s.ModelTurns = done },
			StepSummary{Index: 3, Action: act, Class: ClassCommit, Admission: Hold, StartMS: 120, DurationMS: 30, Shot: "a.jpg", Turns: 2, SaidDone: true}},
		{"a done call refused", func(s *Step) { s.ModelTurns = []ModelTurn{{Calls: []ModelCall{{Name: DoneCall, Outcome: "refused"}}}} },
			StepSummary{Index: 3, Action: act, Class: ClassCommit, Admission: Hold, StartMS: 120, DurationMS: 30, Shot: "a.jpg", Turns: 1}},
	}
	for _, tt := range tests {
		s := base
		tt.edit(&s)
		if got := s.Summary(); got != tt.want {
			t.Errorf("%s: Summary() = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
