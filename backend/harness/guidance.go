package harness

import (
	"fmt"

	"observatory/backend/agent"
)

// How many identical calls in a row earn guidance.
const (
	failuresForGuidance = 2
	readsForGuidance    = 3
	clicksForGuidance   = 3
)

// Guidance is what the harness tells a planner about s, given the steps before it, when it
// repeats the same call (same key: tool, arguments and page): after two identical failures,
// "change approach"; after three identical reads, "nothing is changing"; after three
// identical successful clicks, "the control responds, but not as you expect". Any call that
// is not a read between them resets the count. It never blocks anything.
func Guidance(history []agent.Step, s agent.Step) string {
	ran := s.Decision.Admission == agent.Allow
	switch {
	case ran && s.Error != "":
		if n := repeats(history, s, func(h agent.Step) bool { return h.Error != "" }); n >= failuresForGuidance {
			return fmt.Sprintf("this call failed %d times in a row the same way on this page: change approach", n)
		}
	case ran && s.Decision.Contract == agent.ContractRead:
		if n := repeats(history, s, func(agent.Step) bool { return true }); n >= readsForGuidance {
			return fmt.Sprintf("nothing is changing: the same read ran %d times in a row on this page", n)
		}
	case ran && s.Action.Kind == agent.ActClick:
		if n := repeats(history, s, func(h agent.Step) bool { return h.Error == "" }); n >= clicksForGuidance {
			return fmt.Sprintf("the control responds, but not as you expect: %d identical clicks on this page succeeded and the task is not done", n)
		}
	}
	return ""
}

// repeats counts s and the steps right before it that ran the same call and satisfy like,
// skipping reads of other calls; any other step ends the run.
func repeats(history []agent.Step, s agent.Step, like func(agent.Step) bool) int {
	n := 1
	for i := len(history) - 1; i >= 0; i-- {
		h := history[i]
		switch {
		case h.Decision.Key == s.Decision.Key && h.Decision.Admission == agent.Allow && like(h):
			n++
		case h.Decision.Key != s.Decision.Key && h.Decision.Contract == agent.ContractRead:
			continue
		default:
			return n
		}
	}
	return n
}
