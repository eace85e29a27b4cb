package app

import (
	"fmt"

	"observatory/backend/agent"
	"observatory/backend/metrics"
	"observatory/backend/store"
)

// Metrics computes the outcome metrics of every run in st's history, sliced by by (task,
// lab, attempt, planner or risk). The command line and the UI's Metrics view both read them
// here.
func Metrics(st *store.Store, by string) (metrics.Report, error) {
	b, err := metrics.ParseBy(by)
	if err != nil {
		return metrics.Report{}, err
	}
	list, err := st.List()
	if err != nil {
		return metrics.Report{}, err
	}
	runs := make([]agent.Run, 0, len(list))
	for _, sum := range list {
		run, err := st.Get(sum.ID)
		if err != nil {
			return metrics.Report{}, fmt.Errorf("reading run %s for the metrics: %w", sum.ID, err)
		}
		runs = append(runs, run)
	}
	return metrics.Compute(runs, b), nil
}

// Metrics computes the outcome metrics across the history, sliced by by.
func (an *Analysis) Metrics(by string) (metrics.Report, error) { return Metrics(an.store, by) }
