package store

import (
	"reflect"
	"testing"

	"observatory/backend/agent"
)

// TestStepsKeepTheirTargetBoxesAndCandidates records a run whose steps carry the acted-on
// element's box and, on a miss, the nearest candidates, and reads them back unchanged,
// whether recorded live or imported.
func TestStepsKeepTheirTargetBoxesAndCandidates(t *testing.T) {
	s := open(t, t.TempDir())
	want := testRun("run-box")
	steps := want.Attempts[1].Steps
	steps[0].TargetBox = &agent.Box{X: 40.5, Y: 283.25, Width: 180.5, Height: 21, ViewportWidth: 1000, ViewportHeight: 700}
	steps[1].Candidates = []agent.Candidate{
		{Role: "button", Name: "Book a slot", Similarity: 0.42, Box: agent.Box{X: 260, Y: 295.75, Width: 98, Height: 21, ViewportWidth: 1000, ViewportHeight: 700}},
	}
	if err := record(s, want, true); err != nil {
		t.Fatal(err)
	}
	imported := want
	imported.ID, imported.Source = "imp-box", "shared.json"
	if err := s.SaveImported(imported); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"run-box", "imp-box"} {
		got, err := s.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range want.Attempts[1].Steps {
			g := got.Attempts[1].Steps[i]
			if !reflect.DeepEqual(g.TargetBox, w.TargetBox) || !reflect.DeepEqual(g.Candidates, w.Candidates) {
				t.Errorf("%s step %d: read back box %+v candidates %+v, want %+v %+v", id, i, g.TargetBox, g.Candidates, w.TargetBox, w.Candidates)
			}
		}
	}
}
