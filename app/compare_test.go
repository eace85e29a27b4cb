package app

import (
	"errors"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/compare"
	"observatory/backend/store"
)

func TestCompareReadsBothRunsFromTheStore(t *testing.T) {
	s, _, st := newServices(t, nil)
	verdicts := func(saved bool) agent.Verdicts {
		return agent.Verdicts{
			Truth:   agent.Signal{ID: "truth", Label: "saved as asked", Verdict: agent.Verdict{Done: saved}},
			Signals: []agent.Signal{{ID: "notice", Label: "success notice", Verdict: agent.Verdict{Done: true}}},
			Gate:    agent.Gate{Done: saved},
		}
	}
	at := func(saved bool, terminal agent.Terminal) agent.Attempt {
		return agent.Attempt{Slug: "saves", Title: "Saves", Terminal: terminal, Verdicts: verdicts(saved),
			Steps: []agent.Step{{StartMS: 0, DurationMS: 300}}}
	}
	a := agent.Run{ID: "20260101-000000-aaaa", Task: "booking", Created: time.Now(), Source: "a.json", Attempts: []agent.Attempt{at(true, agent.Completed)}}
	b := agent.Run{ID: "20260102-000000-bbbb", Task: "booking", Created: time.Now(), Source: "b.json", Attempts: []agent.Attempt{at(false, agent.Failed)}}
	for _, r := range []agent.Run{a, b} {
		if err := st.SaveImported(r); err != nil {
			t.Fatal(err)
		}
	}
	c, err := s.Analysis.Compare("20260101", "20260102")
	if err != nil {
		t.Fatalf("Compare by prefixes: %v", err)
	}
	if c.A.ID != a.ID || c.B.ID != b.ID || len(c.Rows) != 1 || c.Differing != 1 {
		t.Fatalf("comparison %+v", c)
	}
	row := c.Rows[0]
	if row.A.Terminal != agent.Completed || row.B.Terminal != agent.Failed || row.B.Wrong != 1 {
		t.Errorf("row %+v / %+v", row.A, row.B)
	}
	if got := row.Differs; len(got) == 0 || got[0] != compare.FieldTerminal {
		t.Errorf("differences %v, want the terminal state first", got)
	}
	if _, err := s.Analysis.Compare(a.ID, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("comparing with a missing run: %v, want ErrNotFound", err)
	}
}

// TestCompareRatesOfTwoSuiteRuns stores two suite runs of two tasks each and compares them
// by their ids: the rows are every task's attempts, and a suite run does not compare with a
// run.
func TestCompareRatesOfTwoSuiteRuns(t *testing.T) {
	s, _, st := newServices(t, nil)
	trials := func(slug string, done bool) []agent.Attempt {
		var out []agent.Attempt
		for k := 1; k <= 6; k++ {
			a := agent.Attempt{Slug: agent.TrialSlug(slug, k), Trial: k, Title: slug, Terminal: agent.Failed}
			if done {
				a.Terminal = agent.Completed
			}
			out = append(out, a)
		}
		return out
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for k, r := range []agent.Run{
		{ID: "r-a1", Task: "booking", SuiteRun: "smoke@a", Attempts: trials("renamed", false)},
		{ID: "r-a2", Task: "outbox", SuiteRun: "smoke@a", Attempts: trials("sends", true)},
		{ID: "r-b1", Task: "booking", SuiteRun: "smoke@b", Attempts: trials("renamed", true)},
		{ID: "r-b2", Task: "outbox", SuiteRun: "smoke@b", Attempts: trials("sends", true)},
	} {
		r.Created, r.Source = at.Add(time.Duration(k)*time.Minute), "live"
		if err := st.SaveImported(r); err != nil {
			t.Fatal(err)
		}
	}
	c, err := s.Analysis.CompareRates("smoke@a", "smoke@b")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) != 2 || c.Rows[0].Attempt != "booking/renamed" || !c.Rows[0].Significant || c.Rows[1].Attempt != "outbox/sends" || c.Rows[1].Significant {
		t.Errorf("rows %+v: want booking/renamed significant, then outbox/sends not", c.Rows)
	}
	if c.A.ID != "smoke@a" || c.A.Task != "smoke" || c.Overall.A.N != 12 {
		t.Errorf("A %+v, overall %+v", c.A, c.Overall)
	}
	if _, err := s.Analysis.CompareRates("smoke@a", "r-b1"); err == nil {
		t.Error("a suite run compared with a run; want an error")
	}
	if _, err := s.Analysis.CompareRates("smoke@a", "smoke@none"); err == nil {
		t.Error("a suite run compared with one that is not there; want an error")
	}
}
