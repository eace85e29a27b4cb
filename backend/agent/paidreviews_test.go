package agent

import "testing"

// TestAStepsRecordKeepsWhatItsReviewsCost: the review a re-check's decision records carries
// the cost of every review of the step, so a run file tells what reviews cost.
func TestAStepsRecordKeepsWhatItsReviewsCost(t *testing.T) {
	first := &Review{Reviewer: ReviewerModel, Verdict: ReviewClear, InTokens: 80, OutTokens: 20, CostUSD: 0.01}
	kept := *first
	kept.Kept = true
	again := &Review{Reviewer: ReviewerModel, Verdict: ReviewCaution, InTokens: 90, OutTokens: 10, CostUSD: 0.02}
	for _, tt := range []struct {
		name          string
		before, after *Review
		want          *Review
	}{
		{"no review before", nil, again, again},
		{"the review kept", first, &kept, &kept},
		{"reviewed again: both paid", first, again, &Review{Reviewer: ReviewerModel, Verdict: ReviewCaution, InTokens: 170, OutTokens: 30, CostUSD: 0.03}},
		{"decided without a review: the one before, kept", first, nil, &kept},
		{"no review at all", nil, nil, nil},
	} {
		got := paidReviews(tt.before, tt.after)
		if (got == nil) != (tt.want == nil) || (got != nil && *got != *tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
	if first.Kept || again.InTokens != 90 {
		t.Error("the reviews given were changed")
	}
}
