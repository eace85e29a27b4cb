package app

import (
	"fmt"

	"observatory/app/apierror"
	"observatory/backend/agent"
	"observatory/backend/compare"
	"observatory/backend/store"
)

// Compare puts two stored runs side by side, attempt by attempt (unique id prefixes are
// enough): each attempt's terminal state, verdicts with their "wrong" marks, step count and
// duration in both, and what differs. Comparing a run with itself is allowed (nothing differs).
func (an *Analysis) Compare(a, b string) (compare.Comparison, error) {
	runA, err := an.store.Get(a)
	if err != nil {
		return compare.Comparison{}, fmt.Errorf("comparing runs: the first run: %w", err)
	}
	runB, err := an.store.Get(b)
	if err != nil {
		return compare.Comparison{}, fmt.Errorf("comparing runs: the second run: %w", err)
	}
	return compare.Runs(runA, runB), nil
}

// CompareRates compares two stored runs of the same task as an A/B test (unique id prefixes
// are enough): each attempt's completion rate over its trials in both, the difference with
// its interval and an exact test (see compare.Rates). The command line and the UI's Compare
// view both read it here.
//
// Two suite runs (ids with "@", as NewSuiteRunID makes them) are compared the same way, every
// task's attempts at once (see compare.Suites).
func CompareRates(st *store.Store, a, b string) (compare.RateComparison, error) {
	switch sa, sb := IsSuiteRun(a), IsSuiteRun(b); {
	case sa && sb:
		return compareSuites(st, a, b)
	case sa || sb:
		return compare.RateComparison{}, apierror.New(apierror.Invalid, "comparing runs: a suite run compares with another suite run, and a run with a run")
	}
	runA, err := st.Get(a)
	if err != nil {
		return compare.RateComparison{}, fmt.Errorf("comparing runs: the first run: %w", err)
	}
	runB, err := st.Get(b)
	if err != nil {
		return compare.RateComparison{}, fmt.Errorf("comparing runs: the second run: %w", err)
	}
	return compare.Rates(runA, runB), nil
}

// CompareRates compares two stored runs as an A/B test; see CompareRates.
func (an *Analysis) CompareRates(a, b string) (compare.RateComparison, error) {
	return CompareRates(an.store, a, b)
}

// compareSuites compares suite runs a and b (their exact ids) as an A/B test.
func compareSuites(st *store.Store, a, b string) (compare.RateComparison, error) {
	runsA, err := suiteRuns(st, a)
	if err != nil {
		return compare.RateComparison{}, fmt.Errorf("comparing suite runs: the first: %w", err)
	}
	runsB, err := suiteRuns(st, b)
	if err != nil {
		return compare.RateComparison{}, fmt.Errorf("comparing suite runs: the second: %w", err)
	}
	return compare.Suites(compare.SuiteRun{ID: a, Name: SuiteName(a), Runs: runsA}, compare.SuiteRun{ID: b, Name: SuiteName(b), Runs: runsB}), nil
}

// RunsOf are the stored runs id names: a suite run's, or the one run.
func RunsOf(st *store.Store, id string) ([]agent.Run, error) {
	if IsSuiteRun(id) {
		return suiteRuns(st, id)
	}
	run, err := st.Get(id)
	if err != nil {
		return nil, err
	}
	return []agent.Run{run}, nil
}
