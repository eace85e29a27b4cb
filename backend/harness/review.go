package harness

import (
	"context"
	"errors"
	"fmt"
	"reflect"

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
// policy's on_unavailable says. The review returned with an error still carries what asking
// cost (its tokens and money).
type Reviewer interface {
	Review(ctx context.Context, req ReviewRequest) (agent.Review, error)
}

// ErrNoReviewer means the reviewer a task names is not configured here.
var ErrNoReviewer = errors.New("no reviewer of that kind is configured")

// review judges an irreversible action with the reviewer the spec names, and turns the
// judgement into the decision: a caution holds the action and says why; a reviewer that
// cannot answer holds it too unless the spec says on_unavailable: allow. A standing review
// (see standing) is the judgement, and the reviewer is not asked again.
func review(ctx context.Context, d agent.Decision, req ReviewRequest, model Reviewer, stands *agent.Review) agent.Decision {
	var reviewer Reviewer = Rules{}
	if req.Spec.Reviewer == agent.ReviewerModel {
		reviewer = model
	}
	var r agent.Review
	err := ErrNoReviewer
	switch {
	case stands != nil:
		r, err = *stands, nil
		r.Kept = true
	case reviewer != nil:
		r, err = reviewer.Review(ctx, req)
	}
	if err != nil {
		r = agent.Review{Reviewer: req.Spec.Reviewer, Verdict: agent.ReviewUnavailable, Reason: "the reviewer could not answer: " + err.Error(),
			InTokens: r.InTokens, OutTokens: r.OutTokens, CostUSD: r.CostUSD}
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

// standing is the review a re-check keeps: the one its prior decision holds, for the same
// action, while the page shows the reviewer nothing it did not already judge (the fields
// about to be sent, the text, the notices, the account). Any change there is reviewed anew;
// nil when there is nothing to keep.
func standing(req agent.PolicyRequest) *agent.Review {
	p := req.Prior
	if p == nil || p.Review == nil || p.Review.Verdict == agent.ReviewUnavailable {
		return nil
	}
	if !reflect.DeepEqual(reviewed(req.Grounding), reviewed(req.Fresh)) {
		return nil
	}
	return p.Review
}

// reviewed is the part of a page a reviewer judges.
func reviewed(s agent.Sample) any {
	return struct {
		URL, Title, Text, Notice, Alert, Principal string
		Fields                                     []agent.Field
		Facts                                      []agent.Fact
	}{s.URL, s.Title, s.Text, s.Notice, s.Alert, s.Principal, s.Fields, s.Facts}
}
