package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest/policy"
)

// stagehandDir holds the Stagehand 4 agent, with Node 22 from npm's node package.
var stagehandDir = filepath.Join("..", "..", "backend", "outside", "testdata", "stagehand")

// TestStagehandAgentUnchanged: Stagehand 4, connected to OBSERVATORY_CDP_URL, loads its own
// extension into the attempt's own browser and acts through it on the browser's first page:
// its inputs are recorded as observed steps, its honest claim is done, and its claim on the
// notice when nothing was saved is marked wrong.
func TestStagehandAgentUnchanged(t *testing.T) {
	node, _ := filepath.Abs(filepath.Join(stagehandDir, "node_modules", ".bin", "node"))
	if _, err := os.Stat(filepath.Join(stagehandDir, "node_modules", "@browserbasehq", "stagehand")); err != nil {
		policy.Unavailable(t, err)
	}
	script, _ := filepath.Abs(filepath.Join(stagehandDir, "stagehand-book.js"))
	task, _ := filepath.Abs(filepath.Join("..", "..", "backend", "labs", "booking", "task.yaml"))
	file := filepath.Join(t.TempDir(), "run.json")
	args := []string{"run", task, "--json", "--no-video", "--export", file, "--data-dir", t.TempDir(),
		"--attempt", "saves-normally", "--attempt", "notice-nothing-saved", "--agent", "--", node, script}
	var out, errOut bytes.Buffer
	if code := Execute(context.Background(), Env{Stdout: &out, Stderr: &errOut, Assets: fstest.MapFS{}}, args); !ranThrough(code, errOut.String()) {
		t.Fatalf("exit %d\n%s", code, errOut.String())
	}
	var rows []jsonRow
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil || len(rows) != 2 {
		t.Fatalf("%v: %s\n%s", err, out.String(), errOut.String())
	}
	want := map[string]agent.Terminal{"saves-normally": agent.Completed, "notice-nothing-saved": agent.Failed}
	for _, r := range rows {
		claim := r.Signals[agent.ClaimID]
		if r.Terminal != want[r.Attempt] || r.Gate != (want[r.Attempt] == agent.Completed) || claim == nil || !*claim {
			t.Errorf("%s: gate %v, %s (%s), claim %v", r.Attempt, r.Gate, r.Terminal, r.Reason, claim)
		}
		if wrong := slices.Contains(r.Wrong, agent.ClaimID); wrong == r.Gate {
			t.Errorf("%s: the claim marked wrong %v with the gate %v", r.Attempt, wrong, r.Gate)
		}
	}
	if steps := observedSteps(t, file); len(steps) < 8 {
		t.Errorf("%d observed steps, want Stagehand's 4 inputs in each attempt", len(steps))
	}
	if code, _, errOut := run(t, "verify", file); code != 0 {
		t.Errorf("the run file does not verify: %s", errOut)
	}
}
