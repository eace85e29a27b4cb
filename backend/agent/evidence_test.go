package agent

import "testing"

// TestEvidenceChoice reads a run's evidence choice and resolves it for each trial: first-trial
// is full for an attempt run once and for its first trial, lean for later ones; an attempt's
// level never reads as first-trial.
func TestEvidenceChoice(t *testing.T) {
	for _, c := range []struct {
		choice string
		trial  int
		want   EvidenceLevel
	}{{"", 0, EvidenceFull}, {"lean", 2, EvidenceLean}, {"full", 3, EvidenceFull}, {"first-trial", 0, EvidenceFull},
		{"first-trial", 1, EvidenceFull}, {"first-trial", 2, EvidenceLean}} {
		l, err := ParseEvidenceChoice(c.choice)
		if err != nil {
			t.Fatal(err)
		}
		if got := (Media{Evidence: l}).ForTrial(c.trial).Evidence; got != c.want {
			t.Errorf("%q at trial %d: %q, want %q", c.choice, c.trial, got, c.want)
		}
	}
	if _, err := ParseEvidence("first-trial"); err == nil {
		t.Error("an attempt's level read first-trial")
	}
	if _, err := ParseEvidenceChoice("some"); err == nil {
		t.Error("evidence some was read")
	}
}
