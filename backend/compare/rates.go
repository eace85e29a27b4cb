package compare

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"observatory/backend/agent"
	"observatory/backend/stats"
)

// Alpha is the significance level of a rate comparison's tests.
const Alpha = 0.05

// Tests a rate row may have been judged by.
const (
	// TestMcNemar is the exact McNemar test, for trials paired by number: both runs have the
	// same trials of the attempt.
	TestMcNemar = "mcnemar"
	// TestFisher is Fisher's exact test, for trials that do not pair.
	TestFisher = "fisher"
)

// RateRow is one attempt's completion rate in both runs, trials pooled, and whether they
// differ.
type RateRow struct {
	// Attempt is the attempt's slug ("overall" for every attempt together).
	Attempt string           `json:"attempt"`
	A       stats.Proportion `json:"a"`
	B       stats.Proportion `json:"b"`
	// Difference is B's rate minus A's, with Newcombe's 95% interval.
	Difference float64        `json:"difference"`
	Interval   stats.Interval `json:"interval"`
	// Test is TestMcNemar or TestFisher; P its two-sided p-value.
	Test string  `json:"test"`
	P    float64 `json:"p"`
	// OnlyA and OnlyB count the paired trials only A's, or only B's, completed (McNemar).
	OnlyA int `json:"only_a,omitempty"`
	OnlyB int `json:"only_b,omitempty"`
	// Significant is P below Alpha.
	Significant bool `json:"significant"`
	// Verdict says in words what the row shows: which run completes more often, or that
	// there is no evidence of a difference (and, when the trials are too few for any to be
	// shown, how many would be needed).
	Verdict string `json:"verdict"`
}

// RateComparison is two runs of the same task compared on how often each attempt completed.
type RateComparison struct {
	A Run `json:"a"`
	B Run `json:"b"`
	// Rows are the attempts both runs have, largest change first; Overall is all of them.
	Rows    []RateRow `json:"rows"`
	Overall RateRow   `json:"overall"`
	// Unmatched names the attempts only one of the runs has, left out of the rows.
	Unmatched []string `json:"unmatched,omitempty"`
}

// trialOutcomes are an attempt's trials in one run: whether each, by number, completed.
type trialOutcomes map[int]bool

// Rates compares how often each attempt completed in run a and in run b, its trials pooled
// (run --repeat). Trials pair by number when both runs have the same ones, and the exact
// McNemar test judges the pairs; otherwise Fisher's exact test judges the two samples.
func Rates(a, b agent.Run) RateComparison {
	oa, orderA := outcomesOf(attemptKey, a)
	ob, orderB := outcomesOf(attemptKey, b)
	return rates(runOf(a), runOf(b), oa, orderA, ob, orderB)
}

// SuiteRun is a suite run as Suites compares it: its id, its suite's name and its runs, one
// per task.
type SuiteRun struct {
	ID   string
	Name string
	Runs []agent.Run
}

// Suites compares two suite runs as Rates compares two runs, every task's attempts at once:
// rows are keyed "task/attempt", and the overall row is every trial of the attempts both
// suites ran. A and B name the suite runs: their ids, the suite's name as their task, and
// when their first run started.
func Suites(a, b SuiteRun) RateComparison {
	oa, orderA := outcomesOf(taskAttemptKey, a.Runs...)
	ob, orderB := outcomesOf(taskAttemptKey, b.Runs...)
	return rates(suiteOf(a), suiteOf(b), oa, orderA, ob, orderB)
}

// suiteOf names suite run s as one side of a comparison.
func suiteOf(s SuiteRun) Run {
	r := Run{ID: s.ID, Task: s.Name, Source: "live"}
	if len(s.Runs) > 0 {
		r.Created, r.Status, r.Source = s.Runs[0].Created, s.Runs[len(s.Runs)-1].Status, s.Runs[0].Source
	}
	return r
}

// rates compares the trials oa and ob of each attempt, in orderA then orderB's order.
func rates(a, b Run, oa map[string]trialOutcomes, orderA []string, ob map[string]trialOutcomes, orderB []string) RateComparison {
	c := RateComparison{A: a, B: b, Rows: []RateRow{}}
	allA, allB := trialOutcomes{}, trialOutcomes{}
	n := 0
	for _, slug := range orderA {
		tb, ok := ob[slug]
		if !ok {
			c.Unmatched = append(c.Unmatched, slug)
			continue
		}
		ta := oa[slug]
		c.Rows = append(c.Rows, rateRow(slug, ta, tb))
		// Every attempt's trials, numbered apart so that only the same trial of the same
		// attempt pairs in the overall row.
		for k, v := range ta {
			allA[n*(agent.MaxTrials+1)+k] = v
		}
		for k, v := range tb {
			allB[n*(agent.MaxTrials+1)+k] = v
		}
		n++
	}
	for _, slug := range orderB {
		if _, ok := oa[slug]; !ok {
			c.Unmatched = append(c.Unmatched, slug)
		}
	}
	c.Overall = rateRow("overall", allA, allB)
	slices.SortStableFunc(c.Rows, func(x, y RateRow) int {
		return cmp.Compare(math.Abs(y.Difference), math.Abs(x.Difference))
	})
	return c
}

// attemptKey keys an attempt by its slug, within one run.
func attemptKey(_ agent.Run, a agent.Attempt) string { return a.Base() }

// taskAttemptKey keys an attempt by its task and slug ("task/attempt"), within a suite run.
func taskAttemptKey(run agent.Run, a agent.Attempt) string { return run.Task + "/" + a.Base() }

// outcomesOf is each attempt's trials in runs, keyed by key, and the keys in the runs' order.
func outcomesOf(key func(agent.Run, agent.Attempt) string, runs ...agent.Run) (map[string]trialOutcomes, []string) {
	out := map[string]trialOutcomes{}
	var order []string
	for _, run := range runs {
		for _, at := range run.Attempts {
			if at.Terminal == "" {
				continue // still running: no outcome
			}
			k := key(run, at)
			if out[k] == nil {
				out[k] = trialOutcomes{}
				order = append(order, k)
			}
			out[k][at.Trial] = at.Terminal == agent.Completed
		}
	}
	return out, order
}

// rateRow compares one attempt's trials in a and b.
func rateRow(slug string, a, b trialOutcomes) RateRow {
	r := RateRow{Attempt: slug, A: proportion(a), B: proportion(b)}
	r.Difference, r.Interval = stats.Difference(r.A, r.B)
	pairs := len(a) == len(b)
	for k := range a {
		if _, ok := b[k]; !ok {
			pairs = false
		}
	}
	if pairs {
		r.Test = TestMcNemar
		for k, va := range a {
			switch vb := b[k]; {
			case va && !vb:
				r.OnlyA++
			case vb && !va:
				r.OnlyB++
			}
		}
		r.P = stats.McNemar(r.OnlyA, r.OnlyB)
	} else {
		r.Test = TestFisher
		r.P = stats.Fisher(r.A, r.B)
	}
	r.Significant = r.P < Alpha
	r.Verdict = verdict(r, len(a))
	return r
}

func proportion(t trialOutcomes) stats.Proportion {
	p := stats.Proportion{N: len(t)}
	for _, ok := range t {
		if ok {
			p.K++
		}
	}
	return p
}

// verdict says what a row shows, plainly.
func verdict(r RateRow, pairs int) string {
	switch {
	case r.Significant && r.Difference > 0:
		return fmt.Sprintf("B completes more often (p = %.3g)", r.P)
	case r.Significant:
		return fmt.Sprintf("A completes more often (p = %.3g)", r.P)
	case r.Test == TestMcNemar && 2*math.Pow(0.5, float64(pairs)) >= Alpha:
		return fmt.Sprintf("no evidence of a difference: %d paired trials cannot show one; %d are needed", pairs, neededPairs())
	}
	return fmt.Sprintf("no evidence of a difference (p = %.3g)", r.P)
}

// neededPairs is the fewest paired trials with which the exact McNemar test can show a
// difference at Alpha: every pair disagreeing, one way, gives p = 2·0.5ⁿ.
func neededPairs() int {
	n := 1
	for 2*math.Pow(0.5, float64(n)) >= Alpha {
		n++
	}
	return n
}
