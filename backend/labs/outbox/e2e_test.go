package outbox_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labtest"
	"observatory/backend/labs/outbox"
)

// scripted is the user of the e2e runs: it denies, never answers, or approves only what goes
// to the requested recipient, as the attempt says.
type scripted struct{ slug string }

func (s scripted) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	switch s.slug {
	case "approval-denied":
		return agent.AnswerDeny, nil
	case "approval-timeout":
		<-ctx.Done()
		return agent.AnswerNone, ctx.Err()
	}
	if req.Recipient == outbox.Requested.To {
		return agent.AnswerApprove, nil
	}
	return agent.AnswerDeny, nil
}

// lab is the outbox lab as its end-to-end test runs it.
var lab = labtest.Lab{Suite: outbox.New(), Rows: len(outbox.Table), Check: outbox.CheckTable,
	Approver: func(spec agent.AttemptSpec) agent.Approver { return scripted{spec.Slug} },
}

// checkSameOpRetried checks that the reconciled retry sent the very operation the dropped
// send had: the server received the operation id twice, the id the look-up asked about, and
// stored the one message under it.
func checkSameOpRetried(t *testing.T, a agent.Attempt, steps []agent.Step) {
	t.Helper()
	var asked string
	for _, s := range steps {
		if s.Reconciliation != nil {
			asked = s.Reconciliation.OpID
		}
	}
	var received, committed []string
	for _, e := range a.Events {
		switch e.Type {
		case outbox.EventReceived:
			received = append(received, e.Data["op_id"])
		case outbox.EventCommitted:
			committed = append(committed, e.Data["op_id"])
		}
	}
	if asked == "" || !slices.Equal(received, []string{asked, asked}) || !slices.Equal(committed, []string{asked}) {
		t.Errorf("%s: the look-up asked about %q, the server received %v and committed %v; want the same operation id sent twice, committed once",
			a.Slug, asked, received, committed)
	}
}

// TestOutboxTableInChromium runs every attempt twice in real Chromium against the real lab
// server, with the harness off (the naive column) and on, and checks every cell of the
// table: messages sent each way, to whom, and the harnessed terminal state. It also checks
// that each row came about the way the table says: the reconciliations, the hold, the
// reviews and the approvals are in the harnessed attempts' steps.
func TestOutboxTableInChromium(t *testing.T) {
	naive, harnessed := labtest.Both(t, lab)
	for i, a := range harnessed.Attempts {
		t.Logf("%s: naive %s in %d steps, harnessed %s in %d steps", a.Slug, naive.Attempts[i].Terminal, len(naive.Attempts[i].Steps), a.Terminal, len(a.Steps))
		steps := a.Steps
		var recs []string
		var approvals []agent.Approval
		var reviews []string
		held := 0
		for _, s := range steps {
			if s.Reconciliation != nil {
				recs = append(recs, s.Reconciliation.Outcome)
			}
			approvals = append(approvals, s.Approvals...)
			if s.Decision.Review != nil {
				reviews = append(reviews, s.Decision.Review.Verdict)
			}
			if s.Decision.Admission == agent.Hold {
				held++
			}
		}
		check := func(ok bool, what string) {
			if !ok {
				t.Errorf("%s: %s (reason: %s)", a.Slug, what, a.Reason)
			}
		}
		switch a.Slug {
		case "lost-response-after-commit":
			check(slices.Equal(recs, []string{agent.ReconciledCompleted}), "want one reconciliation that found the send once, got "+strings.Join(recs, ","))
		case "dropped-before-commit":
			check(slices.Equal(recs, []string{agent.ReconciledRetry}), "want one reconciliation that retried, got "+strings.Join(recs, ","))
			checkSameOpRetried(t, a, steps)
		case "delivered-twice":
			check(slices.Equal(recs, []string{agent.ReconciledDuplicate}), "want one reconciliation that found a duplicate, got "+strings.Join(recs, ","))
		case "send-clicked-twice":
			check(held == 1 && steps[4].Decision.Continue, "want the second Send held and the attempt to go on")
		case "review-caution":
			check(slices.Equal(reviews, []string{agent.ReviewCaution}), "want one review, a caution, got "+strings.Join(reviews, ","))
		case "reviewer-unavailable":
			check(slices.Equal(reviews, []string{agent.ReviewUnavailable}), "want one review, unavailable, got "+strings.Join(reviews, ","))
		case "approval-denied":
			check(len(approvals) == 1 && approvals[0].Answer == agent.AnswerDeny, "want one approval request, denied")
		case "approval-timeout":
			check(len(approvals) == 1 && approvals[0].Answer == agent.AnswerNone && strings.Contains(a.Reason, "approval held: no answer within 1 s") &&
				approvals[0].Note == "held: no answer within 1 s", "want one approval request, not answered in time")
		case "recipient-changed-after-approval":
			check(len(approvals) == 2 && approvals[0].Void && approvals[1].Answer == agent.AnswerDeny &&
				approvals[1].Request.Recipient == outbox.WrongRecipient, "want an approval voided by the new recipient, re-asked and denied")
		default:
			check(len(recs) == 0 && len(approvals) == 0 && held == 0, "want no reconciliation, approval or hold")
		}
	}
}
