package harness

import (
	"context"
	"errors"
	"fmt"

	"observatory/backend/agent"
)

// ReviewRequest is what a reviewer judges: an irreversible action just before it runs, the
// page as it is then (with the exact text about to be sent in its fields), and the policy.
type ReviewRequest struct {
	Spec   agent.ReviewSpec
	Action agent.Action
	// Contract and Class are the action's classification.
	Contract agent.Contract
	Class    agent.ActionClass
	Page     agent.Sample
}

// Reviewer judges an irreversible action against a policy: clear or caution, and why. An
// error means it could not judge (a model that does not answer); review then does what the
// policy's on_unavailable says.
type Reviewer interface {
	Review(ctx context.Context, req ReviewRequest) (agent.Review, error)
}

// ErrNoReviewer means the reviewer a task names is not configured here.
var ErrNoReviewer = errors.New("no reviewer of that kind is configured")

// review judges an irreversible action with the reviewer the spec names, and turns the
// judgement into the decision: a caution holds the action and says why; a reviewer that
// cannot answer holds it too unless the spec says on_unavailable: allow.
func review(ctx context.Context, d agent.Decision, req ReviewRequest, model Reviewer) agent.Decision {
	var reviewer Reviewer = Rules{}
	if req.Spec.Reviewer == agent.ReviewerModel {
		reviewer = model
	}
	var r agent.Review
	err := ErrNoReviewer
	if reviewer != nil {
		r, err = reviewer.Review(ctx, req)
	}
	if err != nil {
		r = agent.Review{Reviewer: req.Spec.Reviewer, Verdict: agent.ReviewUnavailable, Reason: "the reviewer could not answer: " + err.Error()}
	}
	d.Review = &r
	switch {
	case r.Verdict == agent.ReviewCaution:
		d.Admission = agent.Hold
		d.Reason = fmt.Sprintf("review (%s) cautions against it: %s", r.Reviewer, r.Reason)
	case r.Verdict == agent.ReviewUnavailable && req.Spec.OnUnavailable != agent.OnUnavailableAllow:
		d.Admission = agent.Hold
		d.Reason = fmt.Sprintf("review (%s) is unavailable, and on_unavailable is hold: %s", r.Reviewer, r.Reason)
	}
	return d
}
