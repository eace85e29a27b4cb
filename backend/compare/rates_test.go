package compare

import (
	"math"
	"slices"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// trials are n trials of slug, those numbered in ok completed, the others failed.
func trials(slug string, n int, ok ...int) []agent.Attempt {
	var out []agent.Attempt
	for k := 1; k <= n; k++ {
		a := agent.Attempt{Slug: agent.TrialSlug(slug, k), Trial: k, Terminal: agent.Failed}
		if slices.Contains(ok, k) {
			a.Terminal = agent.Completed
		}
		out = append(out, a)
	}
	return out
}

func TestRatesJudgeEachAttempt(t *testing.T) {
	all := []int{1, 2, 3, 4, 5, 6}
	a := agent.Run{ID: "a", Task: "booking", Attempts: slices.Concat(
		trials("same", 6, all...), trials("renamed", 6), trials("few", 3), trials("unpaired", 3, 1), trials("only-a", 2))}
	b := agent.Run{ID: "b", Task: "booking", Attempts: slices.Concat(
		trials("renamed", 6, all...), trials("same", 6, all...), trials("few", 3, 1, 2, 3), trials("unpaired", 4, 1, 2, 3, 4))}
	c := Rates(a, b)
	if len(c.Rows) != 4 || !slices.Equal(c.Unmatched, []string{"only-a"}) {
		t.Fatalf("rows %+v, unmatched %v: want 4 rows and only-a unmatched", c.Rows, c.Unmatched)
	}
	row := func(slug string) RateRow {
		for _, r := range c.Rows {
			if r.Attempt == slug {
				return r
			}
		}
		t.Fatalf("no row %s", slug)
		return RateRow{}
	}
	if c.Rows[0].Attempt != "renamed" && c.Rows[0].Attempt != "few" {
		t.Errorf("first row %s, want a change of 100%% first", c.Rows[0].Attempt)
	}
	// 0 of 6 against 6 of 6, every pair disagreeing: p = 2·0.5⁶ = 0.03125.
	r := row("renamed")
	if r.Test != TestMcNemar || r.OnlyB != 6 || r.OnlyA != 0 || math.Abs(r.P-0.03125) > 1e-12 || !r.Significant || r.Difference != 1 {
		t.Errorf("renamed %+v: want McNemar 0/6, p 0.03125, significant", r)
	}
	if !strings.HasPrefix(r.Verdict, "B completes more often") {
		t.Errorf("renamed verdict %q", r.Verdict)
	}
	if s := row("same"); s.Significant || s.P != 1 || !strings.HasPrefix(s.Verdict, "no evidence of a difference") {
		t.Errorf("same %+v: want no evidence of a difference", s)
	}
	// 3 pairs, all disagreeing: p = 0.25, and no 3 pairs could do better than that.
	if f := row("few"); f.Significant || math.Abs(f.P-0.25) > 1e-12 || !strings.Contains(f.Verdict, "3 paired trials cannot show one; 6 are needed") {
		t.Errorf("few %+v: want no evidence, saying 6 pairs are needed", f)
	}
	// 1 of 3 against 4 of 4, unpaired: Fisher's p = 0.142857 (4/28).
	if u := row("unpaired"); u.Test != TestFisher || math.Abs(u.P-4.0/28) > 1e-9 || u.Significant {
		t.Errorf("unpaired %+v: want Fisher p 0.142857", u)
	}
	if o := c.Overall; o.Test != TestFisher || o.A.N != 18 || o.B.N != 19 {
		t.Errorf("overall %+v: 18 trials in A, 19 in B, and not all pair", o)
	}
}

// TestSuitesCompareEveryTasksAttempts compares two suite runs of two tasks each: attempts are
// keyed by task, so the same slug in two tasks stays two rows; the renamed attempt is the one
// significant change, and the overall row pairs every trial of the attempts both suites ran.
func TestSuitesCompareEveryTasksAttempts(t *testing.T) {
	all := []int{1, 2, 3, 4, 5, 6}
	a := SuiteRun{ID: "smoke@1", Name: "smoke", Runs: []agent.Run{
		{ID: "a1", Task: "booking", Attempts: slices.Concat(trials("renamed", 6), trials("same", 6, all...))},
		{ID: "a2", Task: "outbox", Attempts: trials("same", 6, all...)},
	}}
	b := SuiteRun{ID: "smoke@2", Name: "smoke", Runs: []agent.Run{
		{ID: "b1", Task: "booking", Attempts: slices.Concat(trials("renamed", 6, all...), trials("same", 6, all...))},
		{ID: "b2", Task: "outbox", Attempts: trials("same", 6, all...)},
		{ID: "b3", Task: "tracker", Attempts: trials("close", 6, 1)},
	}}
	c := Suites(a, b)
	var keys []string
	for _, r := range c.Rows {
		keys = append(keys, r.Attempt)
	}
	if !slices.Equal(keys, []string{"booking/renamed", "booking/same", "outbox/same"}) || !slices.Equal(c.Unmatched, []string{"tracker/close"}) {
		t.Fatalf("rows %v, unmatched %v: want booking's two attempts and outbox's, tracker's unmatched", keys, c.Unmatched)
	}
	if r := c.Rows[0]; !r.Significant || r.OnlyB != 6 || r.Difference != 1 {
		t.Errorf("booking/renamed %+v: want 0/6 against 6/6, significant", r)
	}
	for _, r := range c.Rows[1:] {
		if r.Significant || r.P != 1 {
			t.Errorf("%s %+v: want no evidence of a difference", r.Attempt, r)
		}
	}
	// 12 of 18 against 18 of 18, paired: only the renamed attempt's 6 pairs disagree.
	if o := c.Overall; o.Test != TestMcNemar || o.A.K != 12 || o.A.N != 18 || o.B.K != 18 || o.OnlyB != 6 || math.Abs(o.P-0.03125) > 1e-12 {
		t.Errorf("overall %+v: want McNemar 12/18 against 18/18, p 0.03125", o)
	}
	if c.A.ID != "smoke@1" || c.A.Task != "smoke" || c.B.ID != "smoke@2" {
		t.Errorf("sides %+v / %+v: want the suite runs named", c.A, c.B)
	}
}
