package store

import (
	"reflect"
	"testing"

	"observatory/backend/agent"
)

// TestModelRecordsAreKept records a run whose attempt ended with model turns that led to no
// step, one of whose steps' target did not resolve, and reads both back unchanged, whether
// recorded live or imported.
func TestModelRecordsAreKept(t *testing.T) {
	s := open(t, t.TempDir())
	want := testRun("run-model")
	a := &want.Attempts[1]
	a.Steps[0].Unresolved = true
	a.Steps[0].Before.Seq = 2
	a.ModelTurns = []agent.ModelTurn{{Step: len(a.Steps), Messages: 7, GroundedSeq: 5, GroundedAtMS: 40,
		Notes: []string{"every model refused; waited 30s"}, Error: "the 30s time limit is up: time limit: planning limit reached"}}
	if err := record(s, want, true); err != nil {
		t.Fatal(err)
	}
	imported := want
	imported.ID, imported.Source = "imp-model", "shared.json"
	if err := s.SaveImported(imported); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"run-model", "imp-model"} {
		got, err := s.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		g := got.Attempts[1]
		if !reflect.DeepEqual(g.ModelTurns, a.ModelTurns) || !g.Steps[0].Unresolved || g.Steps[1].Unresolved || g.Steps[0].Before.Seq != 2 {
			t.Errorf("%s: read back turns %+v, unresolved %v/%v, seq %d", id, g.ModelTurns, g.Steps[0].Unresolved, g.Steps[1].Unresolved, g.Steps[0].Before.Seq)
		}
	}
}
