package runfile

import (
	"bytes"
	"reflect"
	"testing"

	"observatory/backend/agent"
)

// modelRun is goodRun as a model planned it: its first attempt's steps carry numbered
// observations and the turns that led to them, one step's target did not resolve, and the
// planning that ended the attempt left turns that led to no step.
func modelRun() agent.Run {
	run := goodRun()
	a := &run.Attempts[0]
	for i := range a.Steps {
		s := &a.Steps[i]
		s.Before.Seq, s.After.Seq = 2*i+2, 2*i+3
		s.ModelTurns = []agent.ModelTurn{{Step: i, Model: "openai:gpt-4.1-mini", Messages: 2 + i, Tokens: 900, GroundedSeq: 2*i + 1,
			GroundedAtMS: int64(10 * i), Calls: []agent.ModelCall{{ID: "c1", Name: "click", Arguments: `{"target":{"text":"Go"}}`, Outcome: "proposed"}},
			InTokens: 120, OutTokens: 30, LatencyMS: 800, CostUSD: 0.0005}}
	}
	a.Steps[0].Unresolved = true
	a.ModelTurns = []agent.ModelTurn{{Step: len(a.Steps), Messages: 9, Tokens: 1800, GroundedSeq: 7, GroundedAtMS: 90,
		Notes: []string{"every model refused (openai:gpt-4.1-mini: refused (HTTP 429): quota); waited 1m0s in 2 passes"},
		Error: "the 2m0s time limit is up: time limit: planning limit reached"}}
	return run
}

// TestModelRecordsRoundTrip writes a model's run, with the turns that led to no step, a step
// whose target did not resolve and numbered observations, checks the file against the
// documented schema and reads every one of them back as it was.
func TestModelRecordsRoundTrip(t *testing.T) {
	run := modelRun()
	data := encoded(t, New(run, t0))
	if err := validateSchema(compileSchema(t, schemaPath), data); err != nil {
		t.Fatalf("the file does not validate against %s: %v", schemaPath, err)
	}
	f, err := Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	got, want := f.Run.Attempts[0], run.Attempts[0]
	if !reflect.DeepEqual(got.ModelTurns, want.ModelTurns) {
		t.Errorf("the attempt's turns read back as %+v, want %+v", got.ModelTurns, want.ModelTurns)
	}
	for i, s := range want.Steps {
		g := got.Steps[i]
		if g.Unresolved != s.Unresolved || g.Before.Seq != s.Before.Seq || g.After.Seq != s.After.Seq || !reflect.DeepEqual(g.ModelTurns, s.ModelTurns) {
			t.Errorf("step %d read back unresolved %v, observations %d/%d, turns %+v; want %v, %d/%d, %+v", i, g.Unresolved,
				g.Before.Seq, g.After.Seq, g.ModelTurns, s.Unresolved, s.Before.Seq, s.After.Seq, s.ModelTurns)
		}
	}
}
