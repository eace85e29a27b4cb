package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
)

// TestRunBudgetStopsTheRun runs the booking lab with a run budget of two commits and an
// attempt budget of five steps: saves-normally spends both commits (Reserve slot, Save) and
// completes; notice-nothing-saved is stopped at its first commit, exhausted, naming the run's
// budget; no other attempt starts. The run file records both budgets and verifies offline.
func TestRunBudgetStopsTheRun(t *testing.T) {
	browsertest.Ready(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "run.json")
	code, out, errOut := run(t, "run", "--lab", "booking", "--run-limit", "commits=2", "--limit", "steps=5",
		"--no-video", "--no-screenshots", "--json", "--export", file, "--data-dir", dir)
	var rows []struct {
		Attempt  string         `json:"attempt"`
		Terminal agent.Terminal `json:"terminal"`
		Reason   string         `json:"reason"`
	}
	if err := json.Unmarshal([]byte(out), &rows); !ranThrough(code, errOut) || err != nil {
		t.Fatalf("run: exit %d (%v)\n%s%s", code, err, out, errOut)
	}
	if len(rows) != 2 || rows[0].Terminal != agent.Completed || rows[1].Terminal != agent.Exhausted ||
		!strings.Contains(rows[1].Reason, "the run's commits budget is spent: 2 of 2") {
		t.Fatalf("rows %+v: want saves-normally completed, then notice-nothing-saved exhausted by the run's commits budget, and nothing more", rows)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Run struct {
			Budgets agent.Budgets `json:"budgets"`
		} `json:"run"`
		Attempts []struct {
			Config struct {
				Budgets agent.Budgets `json:"budgets"`
			} `json:"config"`
		} `json:"attempts"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if f.Run.Budgets != (agent.Budgets{Commits: 2}) || len(f.Attempts) != 2 || f.Attempts[0].Config.Budgets != (agent.Budgets{Steps: 5}) {
		t.Errorf("the run file records run budgets %+v and attempt budgets %+v", f.Run.Budgets, f.Attempts)
	}
	if code, out, errOut := run(t, "verify", file); code != 0 {
		t.Errorf("verify: exit %d\n%s%s", code, out, errOut)
	}
}

func TestBudgetFlagsSayWhatIsWrong(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ flag, says string }{
		{"--limit=comits=1", `no budget is named "comits"`},
		{"--run-limit=commits", "want NAME=VALUE"},
		{"--limit=steps=-2", "want a whole number, 0 or more"},
	} {
		code, _, errOut := run(t, "run", "--lab", "booking", tt.flag, "--data-dir", dir)
		if code != 1 || !strings.Contains(errOut, tt.says) {
			t.Errorf("%s: exit %d, %q; want 1 saying %q", tt.flag, code, errOut, tt.says)
		}
	}
}
