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
