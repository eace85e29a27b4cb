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
	runs, err := storedRuns(st, nil)
	if err != nil {
		return metrics.Report{}, err
	}
	return metrics.Compute(runs, b), nil
}

// Calibration is how often each signal of the runs with the given IDs (every stored run when
// none is given) agrees with ground truth and with the gate, sliced by by. The command line
// reads it here.
func Calibration(st *store.Store, by string, ids []string) (metrics.Calibration, error) {
	b, err := metrics.ParseBy(by)
	if err != nil {
		return metrics.Calibration{}, err
	}
	runs, err := storedRuns(st, ids)
	if err != nil {
		return metrics.Calibration{}, err
	}
	return metrics.Calibrate(runs, b), nil
}

// storedRuns reads the runs with the given IDs from st, or all of them when none is given.
func storedRuns(st *store.Store, ids []string) ([]agent.Run, error) {
	if len(ids) == 0 {
		list, err := st.List()
		if err != nil {
			return nil, err
		}
		for _, sum := range list {
			ids = append(ids, sum.ID)
		}
	}
	runs := make([]agent.Run, 0, len(ids))
	for _, id := range ids {
		run, err := st.Get(id)
		if err != nil {
			return nil, fmt.Errorf("reading run %s for the metrics: %w", id, err)
		}
		runs = append(runs, run)
	}
	return runs, nil
}

// Metrics computes the outcome metrics across the history, sliced by by.
func (an *Analysis) Metrics(by string) (metrics.Report, error) { return Metrics(an.store, by) }

// Calibration is how often each signal agrees with ground truth and with the gate, over the
// runs with the given IDs (the whole history when none), sliced by by; the window's
// Calibration view reads it.
func (an *Analysis) Calibration(by string, runs []string) (metrics.Calibration, error) {
	return Calibration(an.store, by, runs)
}
