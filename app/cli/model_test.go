package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
)

// scriptedOpenAI is an OpenAI-compatible chat completions server on 127.0.0.1 that answers
// each request with the next of calls, one tool call a reply, as a model booking the lab would.
func scriptedOpenAI(t *testing.T, calls [][2]string) *httptest.Server {
	t.Helper()
	var mu sync.Mutex
	next := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		i := min(next, len(calls)-1)
		next++
		mu.Unlock()
		reply := map[string]any{
			"id": fmt.Sprint("chatcmpl-", i), "object": "chat.completion", "created": 0, "model": "scripted",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls", "message": map[string]any{
				"role": "assistant", "content": nil,
				"tool_calls": []any{map[string]any{"id": fmt.Sprint("call_", i), "type": "function",
					"function": map[string]any{"name": calls[i][0], "arguments": calls[i][1]}}},
			}}},
			"usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(reply)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestRunWithAModelPlanner runs the booking lab's saves-normally attempt from the command
// line with --planner model against an OpenAI-compatible server (a scripted one: no provider
// is reachable here), through the real SDK client: the gate proves the save, and the run
// file it exports carries the model's turns and verifies without the model.
func TestRunWithAModelPlanner(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	srv := scriptedOpenAI(t, [][2]string{
		{"click", `{"target":{"role":"button","name":"Reserve slot"},"reason":"Open the dialog."}`},
		{"fill", `{"target":{"role":"textbox","name":"Reservation title"},"value":"Spectral scan","reason":"The title asked for."}`},
		{"select", `{"target":{"role":"combobox","name":"Room"},"value":"North lab","reason":"The room asked for."}`},
		{"click", `{"target":{"role":"button","name":"Save reservation"},"reason":"Save it."}`},
		{"done", `{"reason":"It should be saved."}`},
	})
	dir := t.TempDir()
	file := dir + "/model.json"
	code, out, errOut := run(t, "run", "--attempt", "saves-normally", "--planner", "model", "--model", "openai:scripted",
		"--base-url", srv.URL+"/v1", "--no-video", "--no-screenshots", "--export", file, "--data-dir", dir)
	if code != 0 || !strings.Contains(out, "saves-normally: completed") {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errOut)
	}
	data, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(data), `"model_turns"`) || !strings.Contains(string(data), `"Open the dialog."`) {
		t.Errorf("the run file holds no model turns or reasons (%v)", err)
	}
	if code, _, errOut := run(t, "verify", file); code != 0 {
		t.Errorf("verify of the model's run: exit %d: %s", code, errOut)
	}
}
