package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest/policy"
)

// stagehandDir holds the Stagehand 4 agent, with Node 22 from npm's node package.
var stagehandDir = filepath.Join("..", "..", "backend", "outside", "testdata", "stagehand")

// scriptedModel is an OpenAI-compatible chat completions server on 127.0.0.1 that answers
// Stagehand's act() as a model would: for "click the NAME button" it picks, in the
// accessibility tree Stagehand sends, the element whose line names NAME. It counts its calls.
func scriptedModel(t *testing.T) (string, *atomic.Int32) {
	calls := &atomic.Int32{}
	instruction := regexp.MustCompile(`action: click the (.+?) button`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Messages) == 0 {
			http.Error(w, "not a chat completion", http.StatusBadRequest)
			return
		}
		calls.Add(1)
		user := req.Messages[len(req.Messages)-1].Content
		action := any(nil)
		if m := instruction.FindStringSubmatch(user); m != nil {
			for line := range strings.SplitSeq(user, "\n") {
				id := regexp.MustCompile(`\[(\d+-\d+)\]`).FindStringSubmatch(line)
				if id != nil && strings.Contains(line, "button") && strings.Contains(line, m[1]) {
					action = map[string]any{"elementId": id[1], "description": m[1] + " button", "method": "click", "arguments": []string{}}
					break
				}
			}
		}
		content, _ := json.Marshal(map[string]any{"action": action, "twoStep": false})
		_ = json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": string(content)}}},
			"usage":   map[string]int{"prompt_tokens": len(user) / 4, "completion_tokens": len(content) / 4, "total_tokens": (len(user) + len(content)) / 4},
		})
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", calls
}

// TestStagehandAgentUnchanged: Stagehand 4, connected to OBSERVATORY_CDP_URL, loads its own
// extension into the attempt's own browser and acts through it on the browser's first page,
// its act() answered by a scripted model through its client-side model hook: its inputs are
// recorded as observed steps, its honest claim is done, and its claim on the notice when
// nothing was saved is marked wrong.
func TestStagehandAgentUnchanged(t *testing.T) {
	node, _ := filepath.Abs(filepath.Join(stagehandDir, "node_modules", ".bin", "node"))
	if _, err := os.Stat(filepath.Join(stagehandDir, "node_modules", "@browserbasehq", "stagehand")); err != nil {
		policy.Unavailable(t, err)
	}
	model, calls := scriptedModel(t)
	t.Setenv("OPENAI_BASE_URL", model)
	script, _ := filepath.Abs(filepath.Join(stagehandDir, "stagehand-book.js"))
	task, _ := filepath.Abs(filepath.Join("..", "..", "backend", "labs", "booking", "task.yaml"))
	file := filepath.Join(t.TempDir(), "run.json")
	data := t.TempDir()
	t.Cleanup(func() { // what Stagehand printed, when it went wrong
		if logs, _ := filepath.Glob(filepath.Join(data, "media", "*", "*.agent.log")); t.Failed() {
			for _, l := range logs {
				b, _ := os.ReadFile(l)
				t.Logf("%s:\n%s", filepath.Base(l), b)
			}
		}
	})
	args := []string{"run", task, "--json", "--no-video", "--export", file, "--data-dir", data,
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
	if n := calls.Load(); n < 4 {
		t.Errorf("the model was asked %d times, want Stagehand's two act() in each attempt", n)
	}
	if code, _, errOut := run(t, "verify", file); code != 0 {
		t.Errorf("the run file does not verify: %s", errOut)
	}
}
