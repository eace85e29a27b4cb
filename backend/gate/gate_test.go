package gate

import (
	"strings"
	"testing"

	"observatory/backend/agent"
)

func step(desc string, after agent.Sample) agent.Step {
	return agent.Step{Action: agent.Action{Description: desc}, After: after}
}

func TestParallax(t *testing.T) {
	validForm := agent.Sample{FormPresent: true, FormValid: true}
	tests := []struct {
		name     string
		steps    []agent.Step
		want     bool
		evidence string
	}{
		{"valid form after typing", []agent.Step{step("Open reservation dialog", agent.Sample{}), step("Fill task title", validForm)}, true, "no invalid field"},
		{"an error alert counts", []agent.Step{step("Submit reservation form", agent.Sample{Alert: "Save refused"})}, true, "alert"},
		{"a status counts", []agent.Step{step("Save the draft", agent.Sample{Notice: "Saved"})}, true, "status"},
		{"typing is interactive", []agent.Step{step("Type the name", validForm)}, true, "Type the name"},
		{"non-interactive steps never count", []agent.Step{step("Open reservation dialog", validForm), step("Verify committed reservation", agent.Sample{Notice: "Reservation saved"})}, false, "no interactive step"},
		{"an invalid form does not count", []agent.Step{step("Fill task title", agent.Sample{FormPresent: true})}, false, "no interactive step"},
		{"a step that errored is not counted", []agent.Step{{Action: agent.Action{Description: "Fill task title"}, After: validForm, Error: "no element"}}, false, ""},
		{"no steps", nil, false, ""},
		{"signing in is not the task", []agent.Step{{Action: agent.Action{Description: "Fill the password", Setup: true}, After: agent.Sample{Notice: "Welcome back"}}}, false, ""},
		{"a skipped optional step is not counted", []agent.Step{{Action: agent.Action{Description: "Submit the cookie choice", Optional: true}, Unresolved: true, After: agent.Sample{Notice: "Saved"}}}, false, ""},
	}
	for _, tt := range tests {
		got := Parallax(tt.steps)
		if got.Done != tt.want || !strings.Contains(got.Evidence, tt.evidence) {
			t.Errorf("%s: got %+v, want done=%v with evidence mentioning %q", tt.name, got, tt.want, tt.evidence)
		}
	}
}

func TestNotice(t *testing.T) {
	tests := []struct {
		name  string
		steps []agent.Step
		want  bool
	}{
		{"shown on the last page", []agent.Step{step("x", agent.Sample{}), step("y", agent.Sample{Notice: "Reservation saved"})}, true},
		{"shown earlier only", []agent.Step{step("x", agent.Sample{Notice: "Reservation saved"}), step("y", agent.Sample{})}, false},
		{"another notice", []agent.Step{step("y", agent.Sample{Notice: "Saving…"})}, false},
		{"announced as an alert", []agent.Step{step("y", agent.Sample{Notice: "Saving…", Alert: "Reservation saved"})}, true},
		{"no steps", nil, false},
	}
	for _, tt := range tests {
		if got := Notice(tt.steps, "Reservation saved"); got.Done != tt.want || got.Evidence == "" {
			t.Errorf("%s: got %+v, want done=%v with evidence", tt.name, got, tt.want)
		}
	}
}

func TestNoticeAt(t *testing.T) {
	toast := agent.NoticePlace{ID: "toast", CSS: ".snackbar"}
	at := func(id, text string) []agent.Step {
		return []agent.Step{step("Save", agent.Sample{Notice: "Saved", Notices: []agent.Fact{{ID: id, Value: text}}})}
	}
	tests := []struct {
		name     string
		steps    []agent.Step
		want     bool
		evidence string
	}{
		{"the place shows it", at("toast", "Saved"), true, `notice "Saved" shown at .snackbar`},
		{"the place shows another text", at("toast", "Could not save"), false, `the notice at .snackbar reads "Could not save"`},
		{"the page's own notice is not the place's", at("toast", ""), false, "nothing announced at .snackbar"},
		{"another place's notice is not this one's", at("flash", "Saved"), false, "nothing announced at .snackbar"},
		{"no steps", nil, false, "no step was observed"},
	}
	for _, tt := range tests {
		got := NoticeAt(tt.steps, toast, "Saved")
		if got.Done != tt.want || !strings.Contains(got.Evidence, tt.evidence) {
			t.Errorf("%s: got %+v, want done=%v with evidence mentioning %q", tt.name, got, tt.want, tt.evidence)
		}
	}
}
