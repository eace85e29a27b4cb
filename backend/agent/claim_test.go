package agent

import (
	"slices"
	"strings"
	"testing"
)

type judgeFunc func(Evidence) (Verdicts, error)

func (f judgeFunc) Judge(ev Evidence) (Verdicts, error) { return f(ev) }

// TestJudgedAddsTheClaimBesideTheSignals: an attempt's claim becomes the last signal, marked
// wrong by Verdicts.Wrong exactly where it disagrees with the ground truth; no claim adds
// nothing.
func TestJudgedAddsTheClaimBesideTheSignals(t *testing.T) {
	judge := judgeFunc(func(ev Evidence) (Verdicts, error) {
		truth := len(ev.Events) > 0
		return Verdicts{Truth: Signal{ID: "truth", Verdict: Verdict{Done: truth}},
			Signals: []Signal{{ID: "notice", Verdict: Verdict{Done: true}}},
			Gate:    NewGate([]Condition{{ID: "saved", Verdict: Verdict{Done: truth}}})}, nil
	})
	saved := []Event{{Seq: 1, Type: "save"}}
	for _, c := range []struct {
		name      string
		ev        Evidence
		wantWrong bool
		signals   int
	}{
		{"no claim", Evidence{}, false, 1},
		{"done, and it was", Evidence{Events: saved, Claim: &Claim{Done: true, Source: ClaimMCP}}, false, 2},
		{"done, and it was not", Evidence{Claim: &Claim{Done: true, Source: ClaimMCP, Words: "saved"}}, true, 2},
		{"not done, and it was", Evidence{Events: saved, Claim: &Claim{Source: ClaimProcess}}, true, 2},
		{"not done, and it was not", Evidence{Claim: &Claim{Source: ClaimPlanner}}, false, 2},
	} {
		v, err := Judged(judge, c.ev)
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Signals) != c.signals {
			t.Errorf("%s: %d signals, want %d", c.name, len(v.Signals), c.signals)
		}
		if got := slices.Contains(v.Wrong(), ClaimID); got != c.wantWrong {
			t.Errorf("%s: claim wrong %v, want %v (%+v)", c.name, got, c.wantWrong, v.Signals)
		}
	}
}

// TestClaimBoundedAndValidated: recording cuts a claim's text and masks secrets in it; a
// claim read from elsewhere is refused for an unknown source or text over the limit.
func TestClaimBoundedAndValidated(t *testing.T) {
	c := Claim{Done: true, Source: ClaimMCP, Answer: "code hunter2", Words: strings.Repeat("é", MaxClaimText)}.Bounded([]string{"hunter2"})
	if strings.Contains(c.Answer, "hunter2") || len(c.Words) > MaxClaimText || !strings.HasPrefix(c.Words, "é") || strings.ContainsRune(c.Words, '\uFFFD') {
		t.Errorf("bounded claim: answer %q, words of %d bytes", c.Answer, len(c.Words))
	}
	if err := c.Validate(); err != nil {
		t.Errorf("a bounded claim does not validate: %v", err)
	}
	if err := (Claim{Source: "oracle"}).Validate(); err == nil {
		t.Error("a claim from an unknown source validates")
	}
	if err := (Claim{Source: ClaimMCP, Answer: strings.Repeat("x", MaxClaimText+1)}).Validate(); err == nil {
		t.Error("an answer over the limit validates")
	}
}
