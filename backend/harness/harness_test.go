package harness

import (
	"strings"
	"testing"

	"observatory/backend/agent"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		a    agent.Action
		want agent.ActionClass
	}{
		{agent.Action{Kind: agent.ActVerify}, agent.ClassObserve},
		{agent.Action{Kind: agent.ActSubmit, Target: agent.Target{Role: "button", Name: "Next"}}, agent.ClassCommit},
		{agent.Action{Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Delete account"}}, agent.ClassCommit},
		{agent.Action{Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Pay now"}}, agent.ClassCommit},
		{agent.Action{Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Details"}}, agent.ClassPrepare},
		{agent.Action{Kind: agent.ActFill, Target: agent.Target{Role: "textbox", Name: "Send to"}}, agent.ClassPrepare},
		{agent.Action{Kind: agent.ActSelect}, agent.ClassPrepare},
		{agent.Action{Kind: agent.ActPress, Value: "Control+Enter"}, agent.ClassCommit},
		{agent.Action{Kind: agent.ActPress, Value: "Meta+Enter"}, agent.ClassCommit},
		{agent.Action{Kind: agent.ActPress, Value: "Enter"}, agent.ClassPrepare},
		{agent.Action{Kind: agent.ActHover, Target: agent.Target{Role: "button", Name: "Send"}}, agent.ClassObserve},
		{agent.Action{Kind: agent.ActClick, Target: agent.Target{Text: "Send now"}}, agent.ClassCommit},
		{agent.Action{Kind: agent.ActWaitFor, Target: agent.Target{TestID: "done"}}, agent.ClassObserve},
	}
	for _, tt := range tests {
		if got := Classify(tt.a); got != tt.want {
			t.Errorf("Classify(%s %q) = %s, want %s", tt.a.Kind, tt.a.Target.Name, got, tt.want)
		}
	}
}

func TestAdmit(t *testing.T) {
	submit := agent.Action{Kind: agent.ActSubmit, Target: agent.Target{Role: "button", Name: "Save"}}
	fill := agent.Action{Kind: agent.ActFill, Target: agent.Target{Role: "textbox", Name: "Title"}}
	page := agent.Sample{URL: "http://lab/", DialogOpen: true, Fields: []agent.Field{{Role: "textbox", Name: "Title", Value: "Spectral scan"}}}
	edited := page
	edited.Fields = []agent.Field{{Role: "textbox", Name: "Title", Value: "Something else"}}
	harmless := page
	harmless.Notice = "Autosaved" // not part of the fingerprint

	tests := []struct {
		name          string
		a             agent.Action
		grounding     agent.Sample
		fresh         agent.Sample
		spent, budget int
		want          agent.Admission
		reasonHas     string
	}{
		{"commit on an unchanged page", submit, page, page, 2, 8, agent.Allow, "still matches"},
		{"commit after a harmless change", submit, page, harmless, 2, 8, agent.Allow, "still matches"},
		{"commit after the form changed", submit, page, edited, 2, 8, agent.Hold, "changed"},
		{"prepare on a changed page", fill, page, edited, 1, 8, agent.Allow, "within budget"},
		{"budget spent", fill, page, page, 8, 8, agent.Deny, "8 of 8"},
	}
	for _, tt := range tests {
		d := Admit(tt.a, tt.grounding, tt.fresh, tt.spent, tt.budget)
		if d.Admission != tt.want || !strings.Contains(d.Reason, tt.reasonHas) || d.Fingerprint == "" {
			t.Errorf("%s: got %+v, want %s with reason mentioning %q", tt.name, d, tt.want, tt.reasonHas)
		}
	}
}
