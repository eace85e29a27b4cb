package metrics

import (
	"slices"
	"strings"

	"observatory/backend/agent"
	"observatory/backend/stats"
)

// Estimates are what a slice's attempts show of the agent's success when attempts are
// repeated as trials: estimates with their uncertainty, not counts. Success is an attempt
// that completed (its completion gate proved the effect). docs/suites.md defines each one.
type Estimates struct {
	// Interval is the Wilson 95% interval of the completion rate, Completed of Attempts.
	Interval stats.Interval `json:"success_interval"`
	// PassAtK is the chance that at least one of k trials of an attempt completes, and
	// PassHatK that all k do, at the report's K, averaged over the slice's attempts (each
	// attempt of each task, its trials pooled across runs).
	PassAtK  float64 `json:"pass_at_k"`
	PassHatK float64 `json:"pass_hat_k"`
	// MedianSteps and MedianWallMS are over every trial; WallMS is from the attempt's start
	// to the end of its last step.
	MedianSteps  float64 `json:"median_steps"`
	MedianWallMS float64 `json:"median_wall_ms"`
	// TokensPerSuccess and CostPerSuccessUSD are what every trial of the slice spent on its
	// model (tokens in and out, and their cost at the configured prices), per completed
	// trial; 0 when none completed.
	TokensPerSuccess  float64 `json:"tokens_per_success"`
	CostPerSuccessUSD float64 `json:"cost_per_success_usd"`
	// Flaky names the attempts ("task/attempt") whose trials in one run both completed and
	// did not: the same attempt, run again the same way, ended differently. Trials of
	// different runs, perhaps configured differently, are not held against each other.
	Flaky []string `json:"flaky,omitempty"`
}

// outcomes are the trials of one attempt of one task ("task/attempt"), pooled across runs.
type outcomes map[string]*stats.Proportion

func (o outcomes) add(key string, completed bool) {
	p := o[key]
	if p == nil {
		p = &stats.Proportion{}
		o[key] = p
	}
	p.N++
	if completed {
		p.K++
	}
}

// leastTrials is the fewest trials any attempt of the outcomes had: the largest k every
// attempt can be judged at.
func leastTrials(groups ...outcomes) int {
	k := 0
	for _, o := range groups {
		for _, p := range o {
			if k == 0 || p.N < k {
				k = p.N
			}
		}
	}
	return k
}

// unitOf is the attempt a trial belongs to, across runs: its task and its base slug.
func unitOf(run agent.Run, a agent.Attempt) string { return run.Task + "/" + a.Base() }

// inRun keys an attempt's trials in one run: outcomes by run, for telling flaky attempts.
func inRun(run agent.Run, unit string) string { return run.ID + "\x00" + unit }

// estimate computes a slice's estimates from its facts, its attempts' outcomes, and their
// outcomes in each run (keyed by inRun), at k.
func estimate(fs []facts, units, byRun outcomes, k int) Estimates {
	var e Estimates
	completed := 0
	steps := make([]float64, len(fs))
	walls := make([]float64, len(fs))
	var tokens int64
	var cost float64
	for i, f := range fs {
		if f.completed {
			completed++
		}
		steps[i], walls[i] = float64(f.steps), float64(f.wallMS)
		tokens += f.tokens
		cost += f.costUSD
	}
	e.Interval = stats.Proportion{K: completed, N: len(fs)}.Wilson()
	e.MedianSteps, e.MedianWallMS = median(steps), median(walls)
	if completed > 0 {
		e.TokensPerSuccess = float64(tokens) / float64(completed)
		e.CostPerSuccessUSD = cost / float64(completed)
	}
	judged := 0
	for _, p := range units {
		if at, ok := stats.PassAtK(p.N, p.K, k); ok {
			hat, _ := stats.PassHatK(p.N, p.K, k)
			e.PassAtK += at
			e.PassHatK += hat
			judged++
		}
	}
	for key, p := range byRun {
		_, unit, _ := strings.Cut(key, "\x00")
		if p.K > 0 && p.K < p.N && !slices.Contains(e.Flaky, unit) {
			e.Flaky = append(e.Flaky, unit)
		}
	}
	if judged > 0 {
		e.PassAtK /= float64(judged)
		e.PassHatK /= float64(judged)
	}
	slices.Sort(e.Flaky)
	return e
}

// median is the middle value of xs (the mean of the two middle ones), or 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}
