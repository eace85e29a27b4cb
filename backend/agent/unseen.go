package agent

import "errors"

// ErrUnseenChange ends an attempt of an agent acting unseen whose gate holds though nothing
// that could change the app's state went through Observatory (see unseenChange): it is
// ambiguous, whatever the final state says, since the change is not in the trace.
var ErrUnseenChange = errors.New("the state changed around Observatory")

// unseenChange is why an attempt of an agent acting unseen (an outside agent process) whose
// gate holds at its end is not done: none of its pages sent, through the origins guard, a
// request that may change the app's state (Config.Mutations), yet the state changed, since
// the gate, checked before the attempt acted, did not hold then. The change went around
// Observatory (the agent's own HTTP client, a browser it started itself), so nothing of it
// is in the trace and no approval could have been asked. Empty for any other attempt.
func (r *run) unseenChange() string {
	if _, ok := r.planner.(Unseen); !ok {
		return ""
	}
	if n, _, _ := r.cfg.Mutations(r.steps); n > 0 {
		return ""
	}
	for _, s := range r.steps {
		if s.Provenance == Observed {
			return "no request the agent's pages sent could change the app's state, yet the state changed: the completion gate holds, " +
				"but what changed it went around Observatory's origins guard and recorder, so the attempt is not counted as done"
		}
	}
	return "nothing the agent did was observed, yet the state changed: the completion gate holds, but no input of the agent " +
		"and no request of its pages was seen; what changed it went around Observatory's origins guard and recorder, so the attempt is not counted as done"
}
