package app

import (
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/harness"
	"observatory/backend/planner/model"
)

// TestPrepareChoosesThePolicy: a run has the harness, with the model reviewer when models
// are given for it, or the naive column with the harness off; a policy of its own is refused
// with the harness off.
func TestPrepareChoosesThePolicy(t *testing.T) {
	src, err := LabTask("outbox")
	if err != nil {
		t.Fatal(err)
	}
	models := []model.ModelConfig{{Provider: model.ProviderOpenAI, Model: "m", BaseURL: "http://127.0.0.1:9/v1"}}
	tests := []struct {
		name      string
		req       RunRequest
		reviewer  bool
		harnessed bool
	}{
		{"the harness, no reviewing model", RunRequest{Task: src}, false, true},
		{"the harness with a reviewing model", RunRequest{Task: src, ReviewModels: models}, true, true},
		{"the harness off", RunRequest{Task: src, Naive: true, ReviewModels: models}, false, false},
	}
	for _, tt := range tests {
		prep, err := Prepare(tt.req)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		switch p := prep.Runner.Policy.(type) {
		case harness.Policy:
			if !tt.harnessed || (p.Model != nil) != tt.reviewer {
				t.Errorf("%s: the harness with reviewer %v, want harnessed %v, reviewer %v", tt.name, p.Model, tt.harnessed, tt.reviewer)
			}
		case harness.Off:
			if tt.harnessed {
				t.Errorf("%s: the harness is off", tt.name)
			}
		default:
			t.Errorf("%s: policy %T", tt.name, p)
		}
	}
	if _, err := Prepare(RunRequest{Task: src, Naive: true, Policy: harness.Policy{}}); err == nil {
		t.Error("the harness off with a policy of its own: no error")
	}
	for _, r := range []float64{0.5, 4} {
		if _, err := Prepare(RunRequest{Task: src, Media: agent.Media{PixelRatio: r}}); err == nil || !strings.Contains(err.Error(), "want 1 to 3") {
			t.Errorf("pixel ratio %v: %v, want it refused", r, err)
		}
	}
	if got := ReviewModels(src, nil); got != nil {
		t.Errorf("a lab's review models without settings: %v, want none", got)
	}
}
