package app

import (
	"fmt"

	"observatory/backend/compare"
)

// Compare puts two stored runs side by side, attempt by attempt (unique id prefixes are
// enough): each attempt's terminal state, verdicts with their "wrong" marks, step count and
// duration in both, and what differs. Comparing a run with itself is allowed (nothing differs).
func (r *Runs) Compare(a, b string) (compare.Comparison, error) {
	runA, err := r.store.Get(a)
	if err != nil {
		return compare.Comparison{}, fmt.Errorf("comparing runs: the first run: %w", err)
	}
	runB, err := r.store.Get(b)
	if err != nil {
		return compare.Comparison{}, fmt.Errorf("comparing runs: the second run: %w", err)
	}
	return compare.Runs(runA, runB), nil
}
