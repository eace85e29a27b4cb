package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"observatory/backend/planner/model"
)

// chatServer is a minimal OpenAI chat-completions server on 127.0.0.1 that answers every
// request with status and the chat completion message msg.
// It returns the models the requests named.
func chatServer(t *testing.T, status int, msg map[string]any) (*httptest.Server, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var models []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Model string }
		_ = json.NewDecoder(r.Body).Decode(&req)
		mu.Lock()
		models = append(models, req.Model)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		if status != http.StatusOK {
			_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg["error"], "type": "invalid_request_error"}})
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-test", "object": "chat.completion", "created": 1, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls", "message": msg}},
			"usage":   map[string]any{"prompt_tokens": 50, "completion_tokens": 5, "total_tokens": 55}})
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), models...)
	}
}

func TestTestModelShowsTheReply(t *testing.T) {
	srv, models := chatServer(t, http.StatusOK, map[string]any{"role": "assistant", "content": "Connected.", "tool_calls": []any{
		map[string]any{"id": "call-1", "type": "function", "function": map[string]any{"name": "done", "arguments": "{}"}}}})
	got, err := testModel(context.Background(), model.ModelConfig{Provider: model.ProviderOpenAI, BaseURL: srv.URL + "/v1", Model: "tiny"}, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if asked := models(); got.Model != "openai:tiny" || got.Reply != "Connected. · done({})" || len(asked) != 1 || asked[0] != "tiny" {
		t.Errorf("got %+v after requests for %v; want one request for tiny, answered with its words and the done call", got, asked)
	}
}

func TestTestModelShowsTheError(t *testing.T) {
	srv, _ := chatServer(t, http.StatusNotFound, map[string]any{"error": "The model `nope` does not exist"})
	_, err := testModel(context.Background(), model.ModelConfig{Provider: model.ProviderOpenAI, BaseURL: srv.URL + "/v1", Model: "nope"}, 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), "openai:nope did not answer") || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("error %v: want the provider's own message", err)
	}
}
