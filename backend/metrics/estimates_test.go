package metrics_test

import (
	"math"
	"slices"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/metrics"
)

// trials are n trials of attempt slug, the first ok of them completed, each with steps steps
// of 100 ms; a completed one spent 150 tokens at $0.01.
func trials(slug string, n, ok, steps int) []agent.Attempt {
	var out []agent.Attempt
	for k := 1; k <= n; k++ {
		a := agent.Attempt{Slug: agent.TrialSlug(slug, k), Trial: k, Terminal: agent.Failed}
		for i := range steps {
			a.Steps = append(a.Steps, agent.Step{Index: i, StartMS: int64(i) * 100, DurationMS: 100})
		}
		if k <= ok {
			a.Terminal = agent.Completed
			a.ModelTurns = []agent.ModelTurn{{InTokens: 100, OutTokens: 50, CostUSD: 0.01}}
		}
		out = append(out, a)
	}
	return out
}

// TestEstimatesPoolTrials checks the estimates against values worked out by hand (and the
// intervals in Python's standard library): an attempt's trials pool across runs, and an
// attempt that both completed and failed is flagged flaky.
func TestEstimatesPoolTrials(t *testing.T) {
	runs := []agent.Run{
		{ID: "r1", Task: "t", Attempts: slices.Concat(trials("a", 4, 3, 2), trials("b", 4, 0, 4), trials("c", 4, 4, 1))},
		{ID: "r2", Task: "t", Attempts: trials("a", 2, 2, 2)},
	}
	r := metrics.Compute(runs, metrics.ByAttempt)
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	if r.K != 4 {
		t.Errorf("K = %d, want 4: the fewest trials of any attempt", r.K)
	}
	if len(r.Slices) != 3 || r.Slices[0].Key != "t/a" || r.Slices[0].Attempts != 6 || r.Slices[0].Completed != 5 {
		t.Fatalf("slices %+v: want t/a with 6 trials (two runs), 5 completed, then t/b and t/c", r.Slices)
	}
	a := r.Slices[0]
	near("t/a interval lo", a.Interval.Lo, 0.4364971778135299)
	near("t/a interval hi", a.Interval.Hi, 0.9699466302516933)
	near("t/a pass@4", a.PassAtK, 1)     // 1 − C(1,4)/C(6,4)
	near("t/a pass^4", a.PassHatK, 1./3) // C(5,4)/C(6,4) = 5/15
	if !slices.Equal(a.Flaky, []string{"t/a"}) {
		t.Errorf("t/a flaky %v, want itself", a.Flaky)
	}
	o := r.Overall
	if o.Key != metrics.OverallKey || o.Attempts != 14 || o.Completed != 9 || o.Runs != 2 {
		t.Fatalf("overall %+v: want 9 of 14 over 2 runs", o)
	}
	near("overall interval lo", o.Interval.Lo, 0.387644231039074)
	near("overall interval hi", o.Interval.Hi, 0.8365526824644586)
	near("overall pass@4", o.PassAtK, 2./3)             // (1 + 0 + 1) / 3
	near("overall pass^4", o.PassHatK, (1./3+0+1)/3)    // a, b, c
	near("overall median steps", o.MedianSteps, 2)      // 4×1, 6×2, 4×4
	near("overall median wall", o.MedianWallMS, 200)    // steps × 100 ms
	near("tokens per success", o.TokensPerSuccess, 150) // 9 × 150 / 9
	near("cost per success", o.CostPerSuccessUSD, 0.01)
	if !slices.Equal(o.Flaky, []string{"t/a"}) {
		t.Errorf("overall flaky %v, want t/a only: t/b always failed, t/c always completed", o.Flaky)
	}
	if b := r.Slices[1]; b.TokensPerSuccess != 0 || b.Interval.Lo != 0 || b.PassAtK != 0 {
		t.Errorf("t/b %+v: no success, so nothing per success and pass@k 0", b.Estimates)
	}
}

// TestFlakyIsWithinARun checks that an attempt that failed every trial of one run and
// completed every trial of another (configured differently, say) is not called flaky.
func TestFlakyIsWithinARun(t *testing.T) {
	runs := []agent.Run{
		{ID: "exact", Task: "t", Attempts: trials("x", 3, 0, 1)},
		{ID: "alias", Task: "t", Attempts: trials("x", 3, 3, 1)},
	}
	if r := metrics.Compute(runs, metrics.ByAttempt); len(r.Overall.Flaky) != 0 || r.Overall.Completed != 3 {
		t.Errorf("overall %+v: 3 of 6 completed, none flaky", r.Overall)
	}
}

// TestSigningInIsNoStepOfTheTask counts the steps of attempts that sign in first: the setup
// steps are left out of the median steps, while the wall time still covers them.
func TestSigningInIsNoStepOfTheTask(t *testing.T) {
	attempts := trials("a", 3, 3, 2)
	for i := range attempts {
		setup := []agent.Step{
			{Action: agent.Action{Kind: agent.ActFill, Setup: true}, StartMS: 0, DurationMS: 100},
			{Action: agent.Action{Kind: agent.ActClick, Setup: true}, StartMS: 100, DurationMS: 100},
		}
		for j := range attempts[i].Steps {
			attempts[i].Steps[j].StartMS += 200
		}
		attempts[i].Steps = append(setup, attempts[i].Steps...)
	}
	o := metrics.Compute([]agent.Run{{ID: "r", Task: "t", Attempts: attempts}}, metrics.ByAttempt).Overall
	if o.MedianSteps != 2 || o.MedianWallMS != 400 {
		t.Errorf("median steps %v and wall %v ms, want 2 steps (the sign-in's 2 left out) in 400 ms", o.MedianSteps, o.MedianWallMS)
	}
}
