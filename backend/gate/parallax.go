package gate

import (
	"fmt"
	"regexp"

	"observatory/backend/agent"
)

// interactive matches the step descriptions Parallax treats as interactive.
var interactive = regexp.MustCompile(`(?i)\b(typ|fill|submit|sav)`)

// Parallax is the completion rule of Parallax, the earlier agent, ported: after any step whose
// description mentions typing, filling, submitting or saving, a status or alert element on the
// page, or a form with no invalid field, counts as done; the session's setup steps (signing
// in) and skipped optional steps are not the task's and do not count. It reads signs that
// something happened, not proof that the task did; it even counts an error alert.
func Parallax(steps []agent.Step) agent.Verdict {
	for _, s := range steps {
		if s.Error != "" || s.Skipped() || s.Action.Setup || !interactive.MatchString(s.Action.Description) {
			continue
		}
		p := s.After
		switch {
		case p.Notice != "":
			return agent.Verdict{Done: true, Evidence: fmt.Sprintf("after %q: status element %q", s.Action.Description, p.Notice)}
		case p.Alert != "":
			return agent.Verdict{Done: true, Evidence: fmt.Sprintf("after %q: alert element %q", s.Action.Description, p.Alert)}
		case p.FormPresent && p.FormValid:
			return agent.Verdict{Done: true, Evidence: fmt.Sprintf("after %q: form has no invalid field", s.Action.Description)}
		}
	}
	return agent.Verdict{Evidence: "no interactive step was followed by a status, an alert or a valid form"}
}
