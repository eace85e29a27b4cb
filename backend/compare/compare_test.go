package compare

import (
	"reflect"
	"testing"

	"observatory/backend/agent"
)

// attempt is an attempt of slug whose truth, notice signal and gate are as given, with n
// steps of 100 ms each.
func attempt(slug string, terminal agent.Terminal, truth, notice, gate bool, n int) agent.Attempt {
	a := agent.Attempt{Slug: slug, Title: "Title of " + slug, Terminal: terminal, Reason: "because " + string(terminal)}
	a.Verdicts = agent.Verdicts{
		Truth:   agent.Signal{ID: "truth", Label: "saved as asked", Verdict: agent.Verdict{Done: truth}},
		Signals: []agent.Signal{{ID: "notice", Label: "success notice", Verdict: agent.Verdict{Done: notice}}},
		Gate:    agent.Gate{Done: gate},
	}
	for k := range n {
		a.Steps = append(a.Steps, agent.Step{Index: k, StartMS: int64(k) * 100, DurationMS: 100})
	}
	return a
}

func TestRunsComparesAttemptByAttempt(t *testing.T) {
	a := agent.Run{ID: "run-a", Task: "booking", Status: agent.RunFinished, Source: "live", Attempts: []agent.Attempt{
		attempt("same", agent.Completed, true, true, true, 5),
		attempt("flipped", agent.Completed, true, true, true, 5),
		attempt("only-a", agent.Failed, false, true, false, 3),
		attempt("slower", agent.Failed, false, false, false, 5),
	}}
	b := agent.Run{ID: "run-b", Task: "booking", Status: agent.RunImported, Source: "b.json", Attempts: []agent.Attempt{
		attempt("flipped", agent.Failed, false, true, false, 4),
		attempt("same", agent.Completed, true, true, true, 5),
		attempt("slower", agent.Failed, false, false, false, 5),
		attempt("only-b", agent.Rejected, false, false, false, 2),
	}}
	b.Attempts[2].Steps[4].DurationMS = 3000 // ends at 3400 ms, against 500

	c := Runs(a, b)
	if c.A.ID != "run-a" || c.B.Source != "b.json" {
		t.Errorf("sides %+v / %+v", c.A, c.B)
	}
	wantChecks := []Check{{"truth", "saved as asked"}, {"notice", "success notice"}, {"gate", "completion gate"}}
	if !reflect.DeepEqual(c.Checks, wantChecks) {
		t.Errorf("checks %+v, want %+v", c.Checks, wantChecks)
	}
	var slugs []string
	differs := map[string][]Field{}
	for _, r := range c.Rows {
		slugs = append(slugs, r.Slug)
		differs[r.Slug] = r.Differs
	}
	if want := []string{"same", "flipped", "only-a", "slower", "only-b"}; !reflect.DeepEqual(slugs, want) {
		t.Errorf("rows %v, want A's order then B's extras %v", slugs, want)
	}
	want := map[string][]Field{
		"same": {},
		// The notice said done in both, but in B nothing was saved: its "wrong" mark differs.
		"flipped": {FieldTerminal, "truth", "notice", "gate", FieldSteps},
		"only-a":  {FieldPresent},
		"slower":  {FieldDuration},
		"only-b":  {FieldPresent},
	}
	if !reflect.DeepEqual(differs, want) {
		t.Errorf("differences %v,\nwant %v", differs, want)
	}
	if c.Differing != 4 {
		t.Errorf("differing rows %d, want 4", c.Differing)
	}
	flipped := c.Rows[1]
	if flipped.A.Terminal != agent.Completed || flipped.B.Terminal != agent.Failed || flipped.B.Steps != 4 || flipped.A.DurationMS != 500 {
		t.Errorf("flipped row %+v / %+v", flipped.A, flipped.B)
	}
	// In B the notice said done while nothing was saved: wrong, and so counted.
	if got := flipped.B.Calls[1]; !got.Done || !got.Wrong || flipped.B.Wrong != 1 || flipped.A.Wrong != 0 {
		t.Errorf("B's notice call %+v (wrong %d), A's wrong %d", got, flipped.B.Wrong, flipped.A.Wrong)
	}
	if c.Rows[2].B != nil || c.Rows[4].A != nil {
		t.Errorf("an attempt one run lacks must have no side there: %+v, %+v", c.Rows[2].B, c.Rows[4].A)
	}
}

func TestDurationsDifferOnlyBeyondNoise(t *testing.T) {
	for _, tc := range []struct {
		x, y int64
		want bool
	}{
		{500, 500, false},
		{750, 500, false},  // 1.5×: a busy machine's noise
		{1044, 700, false}, // two unchanged runs of one attempt
		{3000, 1400, true}, // 2.1× and 1.6 s
		{900, 100, false},  // 9× but 800 ms
		{1200, 100, true},
	} {
		if got := longer(tc.x, tc.y); got != tc.want {
			t.Errorf("longer(%d, %d) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
}

func TestChecksJoinBothRunsColumns(t *testing.T) {
	a := agent.Run{Attempts: []agent.Attempt{attempt("x", agent.Completed, true, true, true, 1)}}
	b := agent.Run{Attempts: []agent.Attempt{attempt("x", agent.Completed, true, true, true, 1)}}
	b.Attempts[0].Verdicts.Signals = append(b.Attempts[0].Verdicts.Signals, agent.Signal{ID: "parallax", Label: "Parallax's check", Verdict: agent.Verdict{Done: true}})
	c := Runs(a, b)
	if len(c.Checks) != 4 || c.Checks[3].ID != "parallax" {
		t.Fatalf("checks %+v: want B's extra signal last", c.Checks)
	}
	if got := c.Rows[0].Differs; !reflect.DeepEqual(got, []Field{"parallax"}) {
		t.Errorf("a signal only one run declares differs: %v", got)
	}
	if len(c.Rows[0].A.Calls) != 3 || len(c.Rows[0].B.Calls) != 4 {
		t.Errorf("calls %+v / %+v", c.Rows[0].A.Calls, c.Rows[0].B.Calls)
	}
}

func TestNoRunsNoRows(t *testing.T) {
	c := Runs(agent.Run{ID: "a"}, agent.Run{ID: "b"})
	if c.Rows == nil || len(c.Rows) != 0 || c.Differing != 0 || c.Checks[0].Label != "ground truth" {
		t.Errorf("empty comparison %+v", c)
	}
}
