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

// NoticeAt trusts a named notice alone: done when, on the last observed page, the place the
// task names (a toast, a snackbar) announces want, shown then or shown and hidden since the
// observation before.
func NoticeAt(steps []agent.Step, place agent.NoticePlace, want string) agent.Verdict {
	if len(steps) == 0 {
		return agent.Verdict{Evidence: "no step was observed"}
	}
	got := ""
	for _, n := range steps[len(steps)-1].After.Notices {
		if n.ID == place.ID {
			got = n.Value
		}
	}
	switch got {
	case want:
		return agent.Verdict{Done: true, Evidence: fmt.Sprintf("notice %q shown at %s", want, place)}
	case "":
		return agent.Verdict{Evidence: fmt.Sprintf("nothing announced at %s on the last observed page", place)}
	}
	return agent.Verdict{Evidence: fmt.Sprintf("the notice at %s reads %q", place, got)}
}
