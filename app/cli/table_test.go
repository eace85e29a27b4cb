package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// TestTableAndJSONSayCouldNotConfirm: a ground truth or a signal that could not be confirmed
// reads "could not confirm" in the table and null in --json, nothing is marked wrong against
// it, and the WRONG line counts only the attempts whose truth made its call.
func TestTableAndJSONSayCouldNotConfirm(t *testing.T) {
	unknown := agent.Unconfirmed("the evidence was cut short")
	attempts := []agent.Attempt{
		{Slug: "saved", Terminal: agent.Completed, Verdicts: agent.Verdicts{
			Truth:   agent.Signal{ID: "api", Label: "the API has it", Verdict: agent.Verdict{Done: true}},
			Signals: []agent.Signal{{ID: "notice", Label: "notice", Verdict: agent.Verdict{}}},
			Gate:    agent.Gate{Done: true}}},
		{Slug: "cut-short", Terminal: agent.Completed, Verdicts: agent.Verdicts{
			Truth:   agent.Signal{ID: "api", Label: "the API has it", Verdict: unknown},
			Signals: []agent.Signal{{ID: "notice", Label: "notice", Verdict: unknown}},
			Gate:    agent.Gate{Done: true}}},
	}
	var out bytes.Buffer
	printTable(&out, attempts)
	lines := strings.Split(out.String(), "\n")
	if !strings.Contains(lines[1], "not done (wrong)") {
		t.Errorf("the known truth's row %q lacks the wrong notice", lines[1])
	}
	if strings.Count(lines[2], "could not confirm") != 2 || strings.Contains(lines[2], "wrong") || strings.Contains(lines[2], " no ") {
		t.Errorf("the unknown truth's row %q: want truth and notice could not confirm, nothing wrong", lines[2])
	}
	if f := strings.Fields(lines[3]); strings.Join(f, " ") != "WRONG 1 of 1 0 of 1" {
		t.Errorf("WRONG line %q, want 1 of 1 and 0 of 1", lines[3])
	}
	b, err := json.Marshal(jsonRows(attempts))
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatal(err)
	}
	sig := rows[1]["signals"].(map[string]any)
	if rows[1]["truth"] != nil || sig["notice"] != nil || len(rows[1]["wrong"].([]any)) != 0 || rows[0]["truth"] != true {
		t.Errorf("--json rows %s: want truth and notice null, nothing wrong, for the unknown truth", b)
	}
}
