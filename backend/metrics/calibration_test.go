package metrics_test

import (
	"reflect"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/metrics"
	"observatory/backend/stats"
)

// verdicts are an attempt's: the truth (or the gate standing in for it), the gate, and a
// judge and an agent's claim, each done or not, or could not confirm.
func verdicts(truth string, gate bool, judge, claim string, standsIn bool) agent.Verdicts {
	call := func(s string) agent.Verdict {
		if s == "?" {
			return agent.Unconfirmed("no answer")
		}
		return agent.Verdict{Done: s == "done"}
	}
	v := agent.Verdicts{Truth: agent.Signal{ID: "truth", Label: "saved", Verdict: call(truth)}, Gate: agent.Gate{Done: gate},
		Signals: []agent.Signal{{ID: "judge", Label: "model judge", Verdict: call(judge)}, {ID: agent.ClaimID, Label: agent.ClaimLabel, Verdict: call(claim)}}}
	if standsIn {
		v.Truth.Label = agent.GateAsTruthLabel
	}
	return v
}

// TestCalibrationDefinitions puts each kind of call in its cell, with the attempt behind it:
// a could-not-confirm of the signal or of the truth counts in no cell, the rates are k of n
// with their Wilson intervals, and the attempts whose truth is the gate standing in are
// counted as such.
func TestCalibrationDefinitions(t *testing.T) {
	runs := []agent.Run{
		{ID: "r1", Task: "booking", Attempts: []agent.Attempt{
			{Slug: "right-done", Terminal: agent.Completed, Verdicts: verdicts("done", true, "done", "done", false)},
			{Slug: "fooled", Terminal: agent.Failed, Verdicts: verdicts("not", false, "done", "done", false)},
			{Slug: "missed", Terminal: agent.Failed, Verdicts: verdicts("done", false, "not", "?", false)},
			{Slug: "right-not", Terminal: agent.Failed, Verdicts: verdicts("not", false, "not", "not", false)},
			{Slug: "judge-silent", Terminal: agent.Failed, Verdicts: verdicts("not", false, "?", "not", false)},
			{Slug: "truth-unknown", Terminal: agent.Failed, Verdicts: verdicts("?", false, "done", "done", false)},
			{Slug: "running"}, // no terminal yet: left out
		}},
		{ID: "r2", Task: "site", Attempts: []agent.Attempt{
			{Slug: "no-truth", Terminal: agent.Completed, Verdicts: verdicts("done", true, "done", "done", true)},
		}},
	}
	c := metrics.Calibrate(runs, metrics.ByTask)
	if len(c.Slices) != 2 || c.Slices[0].Key != "booking" || c.Slices[1].Key != "site" {
		t.Fatalf("slices %+v", c.Slices)
	}
	var judge metrics.Calibrated
	var order []string
	for _, s := range c.Overall.Signals {
		order = append(order, s.Signal+"/"+string(s.Against))
		if s.Signal == "judge" && s.Against == metrics.AgainstTruth {
			judge = s
		}
	}
	if want := []string{"judge/truth", "agent_claim/truth", "gate/truth", "judge/gate", "agent_claim/gate"}; !reflect.DeepEqual(order, want) {
		t.Errorf("signals %v, want %v", order, want)
	}
	ref := func(run, slug string) []metrics.AttemptRef { return []metrics.AttemptRef{{Run: run, Attempt: slug}} }
	want := metrics.Confusion{
		TrueDone:     append(ref("r1", "right-done"), ref("r2", "no-truth")...),
		FalseDone:    ref("r1", "fooled"),
		FalseNotDone: ref("r1", "missed"),
		TrueNotDone:  ref("r1", "right-not"),
		Unconfirmed:  append(ref("r1", "judge-silent"), ref("r1", "truth-unknown")...),
	}
	if !reflect.DeepEqual(judge.Confusion, want) {
		t.Errorf("the judge's cells %+v\nwant %+v", judge.Confusion, want)
	}
	rate := func(k, n int) metrics.Rate {
		return metrics.Rate{Proportion: stats.Proportion{K: k, N: n}, Interval: stats.Proportion{K: k, N: n}.Wilson()}
	}
	if judge.FalseDone != rate(1, 5) || judge.Precision != rate(2, 3) || judge.Recall != rate(2, 3) || judge.GateStandsIn != 1 {
		t.Errorf("the judge's rates: false done %+v, precision %+v, recall %+v, gate standing in %d", judge.FalseDone, judge.Precision, judge.Recall, judge.GateStandsIn)
	}
	empty := metrics.Calibrate(nil, metrics.ByTask)
	if len(empty.Slices) != 0 || len(empty.Overall.Signals) != 0 {
		t.Errorf("no runs: %+v", empty)
	}
}

// TestCalibrationSaysWhatASignalPools: the overall slice pools each task's own notice under
// the one signal id; it names every label it pools, where a task's own slice names none.
func TestCalibrationSaysWhatASignalPools(t *testing.T) {
	notice := func(task, label string) agent.Run {
		v := verdicts("done", true, "done", "done", false)
		v.Signals = []agent.Signal{{ID: "notice", Label: label, Verdict: agent.Verdict{Done: true}}}
		return agent.Run{ID: task, Task: task, Attempts: []agent.Attempt{{Slug: "a", Terminal: agent.Completed, Verdicts: v}}}
	}
	c := metrics.Calibrate([]agent.Run{notice("booking", `"Reservation saved" notice`), notice("checkout", `"Order placed" notice`), notice("outbox", `"Reservation saved" notice`)}, metrics.ByTask)
	if got := c.Overall.Signals[0]; got.Signal != "notice" || !reflect.DeepEqual(got.Pooled, []string{`"Reservation saved" notice`, `"Order placed" notice`}) {
		t.Errorf("the overall notice pools %q (%s), want both notices", got.Pooled, got.Signal)
	}
	for _, sl := range c.Slices {
		if p := sl.Signals[0].Pooled; p != nil {
			t.Errorf("%s's notice pools %q, want nothing: it is one task's", sl.Key, p)
		}
	}
}
