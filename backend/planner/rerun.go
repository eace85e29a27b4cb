package planner

import (
	"fmt"
	"strings"

	"observatory/backend/agent"
)

// Rerun turns the steps an attempt recorded into the scripted plan that re-executes them
// without the planner that chose them (a model): the actions that ran, in order, each as it
// was proposed (its alias with it, so the selector policy resolves it the same way).
//
// Steps policy held or denied never ran, so they are left out, as are those whose target
// matched no element or several, which the model then named again; a step that ran and
// failed stays, so the rerun stops where the recording did, with the executor's reason. A verify
// step can only be the last; it stays, so the gate is waited on under the wait policy as it
// was. A step whose value was a secret, or held a value read from the environment, cannot be
// re-executed from the record, which keeps only its mask: that is an error naming the step.
//
// The inputs an outside agent was observed making (agent.Observed) are replayed the same way.
// Such an agent waited for the page itself before it exited and the gate was judged, so its
// plan ends with a verify step (the look at the page it left, recorded after its last input,
// or one added for a run recorded without that look): the rerun waits on the gate under the
// wait policy.
func Rerun(steps []agent.Step) (agent.Plan, error) {
	var plan agent.Plan
	observed := false
	for _, s := range steps {
		observed = observed || s.Provenance == agent.Observed
		if s.Decision.Admission == agent.Hold || s.Decision.Admission == agent.Deny || s.Unresolved {
			continue
		}
		a := s.Action
		if a.Secret {
			return nil, fmt.Errorf("step %d (%s) typed a secret, which the record keeps only as a mask; it cannot be re-executed", s.Index+1, a.Description)
		}
		if strings.Contains(a.Value, agent.Mask) {
			return nil, fmt.Errorf("step %d (%s) holds a value read from the environment (a base URL's, say), which the record keeps only as a mask; it cannot be re-executed", s.Index+1, a.Description)
		}
		if a.ID == "" {
			a.ID = fmt.Sprintf("step-%d", s.Index+1)
		}
		plan = append(plan, a)
	}
	if observed && (len(plan) == 0 || plan[len(plan)-1].Kind != agent.ActVerify) {
		plan = append(plan, agent.Action{ID: "verify", Description: "Verify the state the agent left", Kind: agent.ActVerify})
	}
	return plan, nil
}
