package runfile

import (
	"slices"

	"observatory/backend/agent"
)

// interruptedReason is the reason of an unfinished attempt that has none of its own.
const interruptedReason = "interrupted: the process stopped before this attempt finished"

// finishInterrupted gives every attempt that never reached a terminal state, in a run its
// process left interrupted (the store marks a run so once its writer is dead), the state the
// executor gives an attempt stopped at that point: cancelled when nothing it did could have
// committed, ambiguous when a commit had acted (or an outside agent's pages had sent a
// request that may change the app's state, agent.Config.Mutations, as when it crashes),
// since its effect may have landed. Its reason keeps why it stopped and says how it was
// exported. Its verdicts stay unrecorded; import and verify compute them from the evidence
// like any other's. Any other run's unfinished attempt (one still running) is left as it
// is, for validate to refuse.
func finishInterrupted(run agent.Run) agent.Run {
	if run.Status != agent.RunInterrupted || !slices.ContainsFunc(run.Attempts, unfinished) {
		return run
	}
	run.Attempts = slices.Clone(run.Attempts)
	for i, a := range run.Attempts {
		if !unfinished(a) {
			continue
		}
		a.Terminal = agent.Cancelled
		why := "nothing it did could have committed"
		if mayHaveCommitted(a) {
			a.Terminal, why = agent.Ambiguous, "a commit had acted, so its effect may have landed"
		}
		if a.Reason == "" {
			a.Reason = interruptedReason
		}
		a.Reason += " (exported as " + string(a.Terminal) + ": " + why + ")"
		run.Attempts[i] = a
	}
	return run
}

func unfinished(a agent.Attempt) bool { return a.Terminal == "" }

// mayHaveCommitted reports whether what a did may have changed the app: a commit acted, or
// its outside agent's pages sent a request that may change the app's state.
func mayHaveCommitted(a agent.Attempt) bool {
	if slices.ContainsFunc(a.Steps, func(s agent.Step) bool { return s.Decision.Class.Commits() }) {
		return true
	}
	observed := slices.ContainsFunc(a.Steps, func(s agent.Step) bool { return s.Provenance == agent.Observed })
	n, _, _ := a.Config.Mutations(a.Steps)
	return observed && n > 0
}
