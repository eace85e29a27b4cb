package runfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// targetedRun is goodRun with a box on each acted-on step and, on the first attempt's save
// step, a miss with its candidates.
func targetedRun() agent.Run {
	run := goodRun()
	box := func(x float64) agent.Box {
		return agent.Box{X: x, Y: 283.25, Width: 180.5, Height: 21, ViewportWidth: 1000, ViewportHeight: 700}
	}
	for i := range run.Attempts {
		for j := range run.Attempts[i].Steps[:2] {
			b := box(40.5 + float64(j))
			run.Attempts[i].Steps[j].TargetBox = &b
		}
	}
	save := &run.Attempts[0].Steps[1]
	save.TargetBox = nil
	save.Candidates = []agent.Candidate{
		{Role: "button", Name: "Book a slot", Similarity: 0.42, Box: box(260)},
		{Role: "link", Name: "Save", Similarity: 1, Box: box(-12.5)},
	}
	return run
}

// TestTargetBoxesAndCandidatesRoundTrip writes boxes and candidates into a run file, checks
// the file against the documented schema, reads it back whole, and replays it without
// disagreement.
func TestTargetBoxesAndCandidatesRoundTrip(t *testing.T) {
	run := targetedRun()
	data := encoded(t, New(run, t0))
	if err := validateSchema(compileSchema(t, schemaPath), data); err != nil {
		t.Fatalf("the file does not validate against %s: %v", schemaPath, err)
	}
	f, err := Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range run.Attempts {
		for j, want := range a.Steps {
			got := f.Run.Attempts[i].Steps[j]
			if !reflect.DeepEqual(got.TargetBox, want.TargetBox) || !reflect.DeepEqual(got.Candidates, want.Candidates) {
				t.Errorf("attempt %d step %d read back box %+v candidates %+v, want %+v %+v", i, j, got.TargetBox, got.Candidates, want.TargetBox, want.Candidates)
			}
		}
	}
	res, err := Replay(fakeLab{}, f)
	if err != nil || len(res.Disagreements) != 0 {
		t.Errorf("replay: %v, %+v", err, res.Disagreements)
	}
}

// TestHostileBoxesAndCandidatesAreRefused checks that a box no page can have, or candidates
// past the limits, refuse the whole file with the member's path, or its line and column for
// what is not JSON at all (NaN).
func TestHostileBoxesAndCandidatesAreRefused(t *testing.T) {
	six := make([]agent.Candidate, agent.MaxCandidates+1)
	for i := range six {
		six[i] = agent.Candidate{Role: "button", Name: "B", Similarity: 0.5, Box: agent.Box{Width: 1, Height: 1, ViewportWidth: 10, ViewportHeight: 10}}
	}
	tests := []struct {
		name, path, problem string
		edit                func(*agent.Run)
	}{
		{"a huge x", "attempts[0].steps[0].target_box.x", "1e+300: a position lies within", func(r *agent.Run) { r.Attempts[0].Steps[0].TargetBox.X = 1e300 }},
		{"a negative width", "attempts[1].steps[1].target_box.width", "-3: a size lies between 0", func(r *agent.Run) { r.Attempts[1].Steps[1].TargetBox.Width = -3 }},
		{"no viewport", "attempts[0].steps[0].target_box.viewport_height", "0: a viewport is more than 0", func(r *agent.Run) { r.Attempts[0].Steps[0].TargetBox.ViewportHeight = 0 }},
		{"too many candidates", "attempts[0].steps[1].candidates", "6 candidates: a step records at most 5", func(r *agent.Run) { r.Attempts[0].Steps[1].Candidates = six }},
		{"a similarity past 1", "attempts[0].steps[1].candidates[1].similarity", "similarity 1.5", func(r *agent.Run) { r.Attempts[0].Steps[1].Candidates[1].Similarity = 1.5 }},
		{"a candidate without a role", "attempts[0].steps[1].candidates[0].role", "empty role", func(r *agent.Run) { r.Attempts[0].Steps[1].Candidates[0].Role = "" }},
		{"a long name", "attempts[0].steps[1].candidates[0].name", "201 characters", func(r *agent.Run) { r.Attempts[0].Steps[1].Candidates[0].Name = strings.Repeat("é", 201) }},
		{"a huge candidate box", "attempts[0].steps[1].candidates[1].box.y", "-2e+06", func(r *agent.Run) { r.Attempts[0].Steps[1].Candidates[1].Box.Y = -2e6 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := targetedRun()
			tt.edit(&run)
			data, err := json.Marshal(New(run, t0).format()) // not EncodeFile, which refuses to write such a file
			if err != nil {
				t.Fatal(err)
			}
			_, err = Decode(bytes.NewReader(data))
			var refused *Error
			if !errors.As(err, &refused) || refused.Path != tt.path || !strings.Contains(refused.Problem, tt.problem) {
				t.Errorf("Decode = %v\nwant an *Error at %s containing %q", err, tt.path, tt.problem)
			}
			if err := EncodeFile(&bytes.Buffer{}, New(run, t0)); err == nil {
				t.Error("EncodeFile wrote a file Decode refuses")
			}
		})
	}

	honest := string(encoded(t, New(targetedRun(), t0)))
	for _, tt := range []struct{ name, from, to, want string }{
		{"NaN", `"x": 40.5`, `"x": NaN`, "not JSON: invalid character 'N'"},
		{"a number past float64", `"x": 40.5`, `"x": 1e999`, "attempts[0].steps[0].target_box.x: 1e999 is not a number in range"},
		{"a box that is a string", `"x": 40.5`, `"x": "40.5"`, "attempts[0].steps[0].target_box.x: want a number, got a string"},
		{"an unknown member", `"x": 40.5`, `"z": 1, "x": 40.5`, "attempts[0].steps[0].target_box.z: unknown field"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(honest, tt.from) {
				t.Fatalf("the honest file has no %s", tt.from)
			}
			_, err := Decode(strings.NewReader(strings.Replace(honest, tt.from, tt.to, 1)))
			var refused *Error
			if !errors.As(err, &refused) || !strings.Contains(err.Error(), tt.want) || (refused.Path == "" && refused.Line == 0) {
				t.Errorf("Decode = %v\nwant a located refusal containing %q", err, tt.want)
			}
		})
	}
}

// TestSchemaRefusesHostileBoxes checks that the documented schema and Decode agree on the
// hostile boxes and candidates of testdata/bad (NaN is not JSON for either).
func TestSchemaRefusesHostileBoxes(t *testing.T) {
	sch := compileSchema(t, schemaPath)
	for _, name := range []string{"box-huge.json", "many-candidates.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "bad", name))
		if err != nil {
			t.Fatal(err)
		}
		if validateSchema(sch, data) == nil {
			t.Errorf("%s validates against %s, but Decode refuses it", name, schemaPath)
		}
	}
}
