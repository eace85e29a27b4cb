package runfile

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/harness"
)

// authorityRun is goodRun with what the task's authority adds: the principal, facts and
// version in the samples, each decision's fingerprint, and an approval request naming the
// account and the facts.
func authorityRun() agent.Run {
	run := goodRun()
	a := &run.Attempts[0]
	for i := range a.Steps {
		s := &a.Steps[i]
		s.Before.Principal, s.Before.Version = "alice", "v3"
		s.Before.Facts = []agent.Fact{{ID: "price", Value: "20.00"}}
		s.After.Principal, s.After.Facts = "alice", []agent.Fact{{ID: "price", Value: "20.00"}}
		f := harness.Observe(s.Before, s.Action.Target)
		s.Decision.Observed, s.Decision.Fingerprint, s.Decision.Risk = &f, f.Hash, agent.RiskHigh
	}
	req := agent.ApprovalRequest{Action: "Pay", Target: "button[Pay]",
		Amount: "20.00", Principal: "alice", Facts: []agent.Fact{{ID: "price", Value: "20.00"}}, Data: []agent.Field{}, Permanence: "cannot be undone"}
	req.Hash = req.DetailsHash()
	a.Steps[1].Approvals = []agent.Approval{{Answer: agent.AnswerApprove, Request: req, CommitHash: req.Hash}}
	return run
}

// TestAuthorityRecordsRoundTrip writes the authority records into a run file, checks the file
// against the documented schema, reads them back whole, and replays it without disagreement;
// a file whose fingerprint does not match its own observation is reported and corrected.
func TestAuthorityRecordsRoundTrip(t *testing.T) {
	run := authorityRun()
	data := encoded(t, New(run, t0))
	if err := validateSchema(compileSchema(t, schemaPath), data); err != nil {
		t.Fatalf("the file does not validate against %s: %v", schemaPath, err)
	}
	f, err := Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.Run.Attempts[0].Steps, run.Attempts[0].Steps; !reflect.DeepEqual(got, want) {
		t.Errorf("steps read back as %+v,\nwant %+v", got, want)
	}
	if res, err := Replay(fakeLab{}, f); err != nil || len(res.Disagreements) != 0 {
		t.Errorf("replay: %v, %+v", err, res.Disagreements)
	}

	// The file claims the step was taken at another price than its observation shows.
	f.Run.Attempts[0].Steps[1].Before.Facts[0].Value = "25.00"
	res, err := Replay(fakeLab{}, f)
	if err != nil || len(res.Disagreements) != 1 || !strings.HasPrefix(res.Disagreements[0].Verdict, "fingerprint (step 2)") {
		t.Fatalf("replay of a tampered fingerprint: %v, %+v; want one fingerprint disagreement", err, res.Disagreements)
	}
	fixed := res.Run.Attempts[0].Steps[1].Decision
	if want := harness.Observe(f.Run.Attempts[0].Steps[1].Before, f.Run.Attempts[0].Steps[1].Action.Target); *fixed.Observed != want || fixed.Fingerprint != want.Hash {
		t.Errorf("the imported decision keeps %+v, want it recomputed as %+v", fixed.Observed, want)
	}
}

// TestAuthoritySanity refuses an authority the task file format refuses, and more facts than
// a task may declare, each with its path.
func TestAuthoritySanity(t *testing.T) {
	tests := []struct {
		name, path string
		edit       func(attempt map[string]any)
	}{
		{"a principal read two ways", "attempts[0].task.authority", func(a map[string]any) {
			a["task"].(map[string]any)["authority"] = map[string]any{"principal": map[string]any{"test_id": "a", "cookie": "b"}}
		}},
		{"more facts than a task declares", "attempts[0].steps[0].after.facts", func(a map[string]any) {
			facts := make([]any, agent.MaxRelevant+1)
			for i := range facts {
				facts[i] = map[string]any{"id": "x", "value": "y"}
			}
			a["steps"].([]any)[0].(map[string]any)["after"].(map[string]any)["facts"] = facts
		}},
	}
	for _, tt := range tests {
		var doc map[string]any
		if err := json.Unmarshal(encoded(t, New(authorityRun(), t0)), &doc); err != nil {
			t.Fatal(err)
		}
		tt.edit(doc["attempts"].([]any)[0].(map[string]any))
		data, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(bytes.NewReader(data)); err == nil || !strings.Contains(err.Error(), tt.path) {
			t.Errorf("%s: %v, want it refused at %s", tt.name, err, tt.path)
		}
	}
}
