package cireport

import (
	"fmt"

	"observatory/backend/compare"
)

// Against judges the report's cases, runs B of an A/B comparison, against run A instead of
// on their own: a case fails when B completes it less often than A and the exact test finds
// the difference (p below 0.05), and carries its comparison row. Cases A did not run keep no
// row and pass. suite says the rows are keyed "task/attempt" (two suite runs compared).
func (r *Report) Against(c compare.RateComparison, suite bool) {
	rows := map[string]compare.RateRow{}
	for _, row := range c.Rows {
		rows[row.Attempt] = row
	}
	for i := range r.Cases {
		cs := &r.Cases[i]
		key := cs.Attempt
		if suite {
			key = cs.Task + "/" + cs.Attempt
		}
		row, ok := rows[key]
		cs.Failed, cs.Why = false, ""
		if !ok {
			continue
		}
		cs.Against = &row
		if row.Significant && row.Difference < 0 {
			cs.Failed, cs.Why = true, fmt.Sprintf("a regression against %s: %d/%d against %d/%d; %s.", c.A.ID, row.B.K, row.B.N, row.A.K, row.A.N, row.Verdict)
		}
	}
}
