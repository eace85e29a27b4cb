package agent

import (
	"slices"
	"testing"
)

// TestWrongNeedsAKnownTruth: a check is wrong only where it disagrees with a ground truth
// that made its call, and a signal that could not make its own call is not wrong either.
func TestWrongNeedsAKnownTruth(t *testing.T) {
	yes := Verdict{Done: true}
	no := Verdict{}
	sigs := []Signal{{ID: "notice", Verdict: yes}, {ID: "api", Verdict: Unconfirmed("no answer")}}
	cases := []struct {
		name  string
		truth Verdict
		want  []string
	}{
		{"truth no", no, []string{"notice", GateID}},
		{"truth yes", yes, nil},
		{"truth unknown", Unconfirmed("the evidence was cut short"), nil},
	}
	for _, c := range cases {
		v := Verdicts{Truth: Signal{ID: "truth", Verdict: c.truth}, Signals: sigs, Gate: Gate{Done: true}}
		if got := v.Wrong(); !slices.Equal(got, c.want) {
			t.Errorf("%s: wrong %v, want %v", c.name, got, c.want)
		}
		if v.TruthKnown() == (c.truth.Unconfirmed != "") {
			t.Errorf("%s: TruthKnown %v", c.name, v.TruthKnown())
		}
	}
}
