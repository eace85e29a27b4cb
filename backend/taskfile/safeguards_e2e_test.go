package taskfile_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/labs"
	"observatory/backend/runner"
	"observatory/backend/taskfile"
)

// approving is the user who approves every request.
type approving struct{}

func (approving) Approve(context.Context, agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	return agent.AnswerApprove, nil
}

// TestSafeguardsFromATaskFileInChromium runs testdata/outbox/safeguards.yaml in real Chromium
// against the outbox lab: the task's review rule cautions against the send (Enter pressed on
// Send), which is held and sends nothing; an attempt whose own safeguards ask the user instead
// sends once approved; one with none sends. Ground truth is the lab's store.
func TestSafeguardsFromATaskFileInChromium(t *testing.T) {
	suite, err := taskfile.Load("testdata/outbox/safeguards.yaml", taskfile.Options{Labs: labs.ForTaskFiles})
	if err != nil {
		t.Fatal(err)
	}
	r := &runner.Runner{Suite: suite, Spec: suite.Spec(), Launch: launcher(t),
		Approver: func(agent.AttemptSpec) agent.Approver { return approving{} }}
	run, err := r.Run(context.Background(), "safeguards", runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		slug     string
		terminal agent.Terminal
		truth    bool
		review   string // the send's review verdict, "" for none
		approved bool
	}{
		{"review-cautions", agent.Rejected, false, agent.ReviewCaution, false},
		{"user-approves", agent.Completed, true, "", true},
		{"unguarded", agent.Completed, true, "", false},
	}
	if len(run.Attempts) != len(tests) {
		t.Fatalf("%d attempts, want %d", len(run.Attempts), len(tests))
	}
	for i, tt := range tests {
		a := run.Attempts[i]
		i := slices.IndexFunc(a.Steps, func(s agent.Step) bool { return s.Action.ID == "send" })
		if a.Slug != tt.slug || i < 0 {
			t.Fatalf("attempt %s has no send step", a.Slug)
		}
		send := a.Steps[i]
		review := ""
		if send.Decision.Review != nil {
			review = send.Decision.Review.Verdict
		}
		approved := len(send.Approvals) == 1 && send.Approvals[0].Answer == agent.AnswerApprove
		if a.Terminal != tt.terminal || a.Verdicts.Truth.Done != tt.truth || review != tt.review || approved != tt.approved ||
			send.Decision.Contract != agent.ContractIrreversible {
			t.Errorf("%s: %s (%s), truth %v (%s), review %q, approved %v, contract %s; want %s, truth %v, review %q, approved %v, irreversible",
				a.Slug, a.Terminal, a.Reason, a.Verdicts.Truth.Done, a.Verdicts.Truth.Evidence, review, approved, send.Decision.Contract,
				tt.terminal, tt.truth, tt.review, tt.approved)
		}
	}
	if a := run.Attempts[0]; !strings.Contains(a.Reason, "cautions against it: the message shares the Q3 figures") ||
		!strings.Contains(a.Verdicts.Truth.Evidence, "no message was sent") {
		t.Errorf("the cautioned send: %s; truth %q; want held with the rule's reason and nothing sent", a.Reason, a.Verdicts.Truth.Evidence)
	}
}
