package runfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// TestClaimIsCarriedAndJudgedOnImport: an attempt's agent claim travels in the run file,
// import judges it as the agent's-claim signal (wrong where it disagrees with the ground
// truth), a recorded signal that misstates the claim is a disagreement, and a claim no agent
// could make is refused by its path.
func TestClaimIsCarriedAndJudgedOnImport(t *testing.T) {
	run := goodRun()
	claim := &agent.Claim{Done: true, Source: agent.ClaimMCP, Words: "Booked the room; the notice says saved."}
	wrong := &run.Attempts[1] // wrong-room: the ground truth is not done
	wrong.Claim = claim
	v, err := agent.Judged(fakeLab{}, wrong.Evidence())
	if err != nil {
		t.Fatal(err)
	}
	wrong.Verdicts = v
	data := encoded(t, File{Schema: Schema, Exported: t0, Run: run})
	f, err := Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Run.Attempts[1].Claim; got == nil || *got != *claim {
		t.Fatalf("claim read back as %+v, want %+v", got, claim)
	}
	if f.Run.Attempts[0].Claim != nil || bytes.Count(data, []byte(`"claim"`)) != 1 {
		t.Errorf("an attempt without a claim got one, or the file names it %d times", bytes.Count(data, []byte(`"claim"`)))
	}
	res, err := Replay(fakeLab{}, f)
	if err != nil || len(res.Disagreements) != 0 {
		t.Fatalf("replay of a truthful file: %v, %+v", err, res.Disagreements)
	}
	got := res.Run.Attempts[1].Verdicts
	sg, ok := got.Signal(agent.ClaimID)
	if !ok || !sg.Done || sg.Label != agent.ClaimLabel || !strings.Contains(sg.Evidence, "said done") {
		t.Errorf("the claim's signal after import: %+v (found %v)", sg, ok)
	}
	if !slices.Contains(got.Wrong(), agent.ClaimID) {
		t.Errorf("a done claim on an attempt that did not happen is not marked wrong: %v", got.Wrong())
	}
	if _, ok := res.Run.Attempts[0].Verdicts.Signal(agent.ClaimID); ok {
		t.Error("an attempt without a claim was given the claim's signal")
	}

	// A file whose recorded signal says the agent did not claim done.
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	sigs := doc["attempts"].([]any)[1].(map[string]any)["verdicts"].(map[string]any)["signals"].([]any)
	sigs[len(sigs)-1].(map[string]any)["done"] = false
	tampered, _ := json.Marshal(doc)
	f, err = Decode(bytes.NewReader(tampered))
	if err != nil {
		t.Fatal(err)
	}
	res, err = Replay(fakeLab{}, f)
	if err != nil || !slices.ContainsFunc(res.Disagreements, func(d Disagreement) bool { return d.Verdict == agent.ClaimID }) {
		t.Errorf("a misstated claim signal: %v, disagreements %+v", err, res.Disagreements)
	}

	var refused *Error
	for _, bad := range []struct {
		field string
		value any
		says  string
	}{
		{"source", "oracle", "source \"oracle\""},
		{"words", strings.Repeat("x", agent.MaxClaimText+1), "over the 4096"},
	} {
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		doc["attempts"].([]any)[1].(map[string]any)["claim"].(map[string]any)[bad.field] = bad.value
		b, _ := json.Marshal(doc)
		_, err := Decode(bytes.NewReader(b))
		if !errors.As(err, &refused) || refused.Path != "attempts[1].claim" || !strings.Contains(refused.Problem, bad.says) {
			t.Errorf("a claim with a bad %s: %v, want it refused at attempts[1].claim", bad.field, err)
		}
	}
}
