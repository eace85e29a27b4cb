package runner_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/compare"
	"observatory/backend/labs/booking"
	"observatory/backend/metrics"
	"observatory/backend/runner"
	"observatory/backend/store"
)

// alternating is a suite whose attempts' faults fire on odd trials only: on even ones the
// app starts as it normally would. It works on any suite, for any fault: a flaky app.
type alternating struct{ agent.Suite }

func (s alternating) Start(ctx context.Context, spec agent.AttemptSpec) (agent.Environment, error) {
	if spec.Trial%2 == 0 {
		spec.Fault = ""
	}
	return s.Suite.Start(ctx, spec)
}

// TestRepeatedTrialsAreEstimated runs three of the booking lab's attempts four times each,
// their faults firing on alternate trials, into a real store, and checks the estimates read
// back from the stored trials against a table worked out here: the attempt whose refusal
// comes and goes is flaky, the others are not.
func TestRepeatedTrialsAreEstimated(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := &runner.Runner{Suite: alternating{booking.New()}, Launch: launcher(t), Recorder: st}
	opts := runner.Options{Attempts: []string{"saves-normally", "save-refused", "renamed-button-exact"}, Repeat: 4, Parallel: 2, Override: roomyDeadline()}
	if _, err := r.Run(context.Background(), "trials", opts); err != nil {
		t.Fatal(err)
	}
	stored, err := st.Get("trials")
	if err != nil {
		t.Fatal(err)
	}
	// The table, counted here from the stored trials: each attempt's trials 1 to 4, in order.
	completed := map[string]int{}
	for i, a := range stored.Attempts {
		if want := i%4 + 1; a.Trial != want || a.Slug != agent.TrialSlug(a.Base(), want) {
			t.Errorf("stored attempt %d is %s, trial %d; want trial %d", i, a.Slug, a.Trial, want)
		}
		if a.Terminal == agent.Completed {
			completed[a.Base()]++
		}
	}
	want := map[string]int{"saves-normally": 4, "save-refused": 2, "renamed-button-exact": 2}
	for slug, n := range want {
		if completed[slug] != n {
			t.Errorf("%s completed %d of 4 trials, want %d", slug, completed[slug], n)
		}
	}
	// Wilson 95% intervals of 2/4, 4/4 and 8/12 (Python's statistics.NormalDist).
	intervals := map[string][2]float64{
		"booking/save-refused":         {0.15003898915214955, 0.8499610108478505},
		"booking/renamed-button-exact": {0.15003898915214955, 0.8499610108478505},
		"booking/saves-normally":       {0.5101091635454028, 1},
		metrics.OverallKey:             {0.39062208887279953, 0.8618799089087867}, // 8 of 12
	}
	rep := metrics.Compute([]agent.Run{stored}, metrics.ByAttempt)
	for _, s := range append(rep.Slices, rep.Overall) {
		iv, ok := intervals[s.Key]
		if !ok {
			t.Errorf("an unexpected slice %s", s.Key)
			continue
		}
		if math.Abs(s.Interval.Lo-iv[0]) > 1e-9 || math.Abs(s.Interval.Hi-iv[1]) > 1e-9 {
			t.Errorf("%s: interval %v, want [%v, %v]", s.Key, s.Interval, iv[0], iv[1])
		}
	}
	if want := []string{"booking/renamed-button-exact", "booking/save-refused"}; !slices.Equal(rep.Overall.Flaky, want) {
		t.Errorf("flaky %v, want %v: their faults fired on odd trials only", rep.Overall.Flaky, want)
	}
}

// TestABFindsTheRenamedButton runs two of the booking lab's attempts six times with exact
// selectors and six times with aliases: the attempt whose button was renamed completes only
// with aliases, every one of its six pairs disagreeing, which the exact McNemar test calls
// a difference (p = 2·0.5⁶ = 0.031; with 5 trials no difference could be shown); the normal
// save completes both ways, no evidence of a difference.
func TestABFindsTheRenamedButton(t *testing.T) {
	r := &runner.Runner{Suite: booking.New(), Launch: launcher(t)}
	runOf := func(mode agent.SelectorMode) agent.Run {
		ov := roomyDeadline()
		ov.Selectors = &mode
		run, err := r.Run(context.Background(), string(mode), runner.Options{Attempts: []string{"renamed-button-exact", "saves-normally"}, Repeat: 6, Parallel: 2, Override: ov})
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	c := compare.Rates(runOf(agent.SelectExact), runOf(agent.SelectAlias))
	if len(c.Rows) != 2 || c.Rows[0].Attempt != "renamed-button-exact" {
		t.Fatalf("rows %+v: want the renamed button first, the largest change", c.Rows)
	}
	renamed, normal := c.Rows[0], c.Rows[1]
	if renamed.A.K != 0 || renamed.B.K != 6 || renamed.Test != compare.TestMcNemar || math.Abs(renamed.P-0.03125) > 1e-12 || !renamed.Significant {
		t.Errorf("renamed button %+v: want 0 of 6 against 6 of 6, McNemar p 0.03125, significant", renamed)
	}
	if normal.A.K != 6 || normal.B.K != 6 || normal.Significant || normal.Verdict != "no evidence of a difference (p = 1)" {
		t.Errorf("normal save %+v: want 6 of 6 both ways, no evidence of a difference", normal)
	}
}
