package gate

import (
	"fmt"

	"observatory/backend/agent"
)

// Notice trusts the success notice alone: done when the last observed page announces want,
// as its notice (a status, output or live region) or its alert. It is the cheap signal the
// gate never relies on by itself.
func Notice(steps []agent.Step, want string) agent.Verdict {
	if len(steps) == 0 {
		return agent.Verdict{Evidence: "no step was observed"}
	}
	last := steps[len(steps)-1].After
	if last.Notice == want {
		return agent.Verdict{Done: true, Evidence: fmt.Sprintf("status notice %q shown", want)}
	}
	if last.Alert == want {
		return agent.Verdict{Done: true, Evidence: fmt.Sprintf("alert %q shown", want)}
	}
	if last.Notice == "" {
		return agent.Verdict{Evidence: "no status notice on the last observed page"}
	}
	return agent.Verdict{Evidence: fmt.Sprintf("status notice reads %q", last.Notice)}
}
