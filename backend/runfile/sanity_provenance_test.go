package runfile

import (
	"testing"

	"observatory/backend/agent"
)

// TestAnObservedStepCarriesOnlyApprovalsHeldAtTheNetwork checks what an observed step may
// carry: the answer about a request held at the network, never a proposal's reason or an
// approval a commit used.
func TestAnObservedStepCarriesOnlyApprovalsHeldAtTheNetwork(t *testing.T) {
	held := agent.Approval{Request: agent.ApprovalRequest{Action: "POST http://127.0.0.1:1/api/save"}, Answer: agent.AnswerDeny}
	used := held
	used.Answer, used.CommitHash = agent.AnswerApprove, "abc"
	for _, c := range []struct {
		name string
		step agent.Step
		ok   bool
	}{
		{"nothing", agent.Step{Provenance: agent.Observed}, true},
		{"a held request's answer", agent.Step{Provenance: agent.Observed, Approvals: []agent.Approval{held}}, true},
		{"an approval a commit used", agent.Step{Provenance: agent.Observed, Approvals: []agent.Approval{held, used}}, false},
		{"a void approval", agent.Step{Provenance: agent.Observed, Approvals: []agent.Approval{{Void: true}}}, false},
		{"a reason", agent.Step{Provenance: agent.Observed, Reason: "because"}, false},
	} {
		if err := saneProvenance("attempts[0].steps[0]", c.step); (err == nil) != c.ok {
			t.Errorf("%s: %v, want accepted %v", c.name, err, c.ok)
		}
	}
}
