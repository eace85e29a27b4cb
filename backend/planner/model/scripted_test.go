package model

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// reply is one scripted answer of a fake provider: a status (200 when 0), a JSON body, an
// optional delay before answering and extra headers.
type reply struct {
	status int
	body   string
	delay  time.Duration
	header map[string]string
}

// scripted is a protocol-faithful fake of one provider's API on 127.0.0.1: it answers each
// request with the next scripted reply and keeps every request for assertions.
type scripted struct {
	t    *testing.T
	api  api
	srv  *httptest.Server
	mu   sync.Mutex
	next []reply
	reqs []recorded
}

// recorded is one request the fake received.
type recorded struct {
	body   []byte
	header http.Header
}

func newScripted(t *testing.T, a api, replies ...reply) *scripted {
	t.Helper()
	s := &scripted{t: t, api: a, next: replies}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *scripted) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	if r.Method != http.MethodPost || r.URL.Path != s.api.path {
		s.mu.Unlock()
		s.t.Errorf("%s: unexpected %s %s", s.api.name, r.Method, r.URL.Path)
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	s.reqs = append(s.reqs, recorded{body: body, header: r.Header.Clone()})
	if len(s.next) == 0 {
		s.mu.Unlock()
		s.t.Errorf("%s: request %d has no scripted reply", s.api.name, len(s.reqs))
		http.Error(w, `{"error":{"message":"script exhausted"}}`, http.StatusBadRequest)
		return
	}
	rep := s.next[0]
	s.next = s.next[1:]
	s.mu.Unlock()
	if rep.delay > 0 {
		select {
		case <-time.After(rep.delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	if rep.status == 0 {
		rep.status = http.StatusOK
	}
	w.WriteHeader(rep.status)
	_, _ = io.WriteString(w, rep.body)
}

// requests returns the bodies received so far, each decoded into the neutral view.
func (s *scripted) requests() []view {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]view, len(s.reqs))
	for i, r := range s.reqs {
		out[i] = s.api.view(s.t, r.body)
	}
	return out
}

// headers returns the headers of request i.
func (s *scripted) headers(i int) http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reqs[i].header
}

// model is the ModelConfig pointing at this fake, with its key in keyEnv.
func (s *scripted) model(name, keyEnv string) ModelConfig {
	return ModelConfig{Provider: s.api.provider, BaseURL: s.api.baseURL(s.srv.URL), Model: name, APIKeyEnv: keyEnv,
		PriceInPerMTok: 2, PriceOutPerMTok: 8}
}

// view is a request as either API sent it, reduced to what the tests check: the model, the
// system prompt, the tools offered and the conversation in order.
type view struct {
	Model  string
	System string
	Tools  []string
	Items  []item
}

// item is one element of the conversation: a user text, an assistant text, a tool call or a
// tool result, in the order the API carries them.
type item struct {
	Kind    string // "user", "assistant", "call", "result"
	Text    string
	ID      string // the call's ID, or the ID a result answers
	Name    string
	Args    string
	IsError bool
	Image   bool
}

// firstUser is the text of the conversation's first user item.
func (v view) firstUser() string {
	for _, it := range v.Items {
		if it.Kind == "user" {
			return it.Text
		}
	}
	return ""
}

// checkPairs fails t unless every tool call in v is answered by exactly one result before
// the conversation goes on, and every result answers such a call.
func (v view) checkPairs(t *testing.T) {
	t.Helper()
	open := map[string]bool{}
	for _, it := range v.Items {
		switch it.Kind {
		case "call":
			open[it.ID] = true
		case "result":
			if !open[it.ID] {
				t.Errorf("a tool result answers %q, which no open call made", it.ID)
			}
			delete(open, it.ID)
		default:
			for id := range open {
				t.Errorf("tool call %q is not answered before the conversation goes on", id)
			}
			clear(open)
		}
	}
	for id := range open {
		t.Errorf("tool call %q has no result", id)
	}
}

// api describes one provider's wire format for the fake and the assertions.
type api struct {
	name     string
	provider string
	path     string
	baseURL  func(srv string) string
	call     func(id, name, args string) reply
	text     func(s string) reply
	refusal  func(s string) reply
	fail     func(status int, msg string) reply
	view     func(t *testing.T, body []byte) view
	// key reads the API key a request carried.
	key func(h http.Header) string
}

const usageIn, usageOut = 120, 30

// openaiAPI is OpenAI chat completions, non-streaming.
var openaiAPI = api{
	name: "openai", provider: ProviderOpenAI, path: "/v1/chat/completions",
	baseURL: func(srv string) string { return srv + "/v1" },
	call: func(id, name, args string) reply {
		return reply{body: openaiBody(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{
			map[string]any{"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": args}}}}, "tool_calls")}
	},
	text: func(s string) reply {
		return reply{body: openaiBody(map[string]any{"role": "assistant", "content": s}, "stop")}
	},
	refusal: func(s string) reply {
		return reply{body: openaiBody(map[string]any{"role": "assistant", "content": nil, "refusal": s}, "stop")}
	},
	fail: func(status int, msg string) reply {
		b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "test_error", "param": nil, "code": nil}})
		return reply{status: status, body: string(b)}
	},
	view: openaiView,
	key:  func(h http.Header) string { return strings.TrimPrefix(h.Get("Authorization"), "Bearer ") },
}

func openaiBody(msg map[string]any, finish string) string {
	b, _ := json.Marshal(map[string]any{"id": "chatcmpl-test", "object": "chat.completion", "created": 1, "model": "test-model",
		"choices": []any{map[string]any{"index": 0, "finish_reason": finish, "message": msg, "logprobs": nil}},
		"usage":   map[string]any{"prompt_tokens": usageIn, "completion_tokens": usageOut, "total_tokens": usageIn + usageOut}})
	return string(b)
}

func openaiView(t *testing.T, body []byte) view {
	t.Helper()
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Tools []struct {
			Type     string `json:"type"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
		Stream bool `json:"stream"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("openai request is not JSON: %v", err)
	}
	if req.Stream {
		t.Error("openai request asks for streaming")
	}
	v := view{Model: req.Model}
	for _, tl := range req.Tools {
		if tl.Type != "function" {
			t.Errorf("tool of type %q", tl.Type)
		}
		v.Tools = append(v.Tools, tl.Function.Name)
	}
	for _, m := range req.Messages {
		text, image := openaiContent(t, m.Content)
		switch m.Role {
		case "system":
			v.System = text
		case "user":
			v.Items = append(v.Items, item{Kind: "user", Text: text, Image: image})
		case "assistant":
			if text != "" {
				v.Items = append(v.Items, item{Kind: "assistant", Text: text})
			}
			for _, c := range m.ToolCalls {
				v.Items = append(v.Items, item{Kind: "call", ID: c.ID, Name: c.Function.Name, Args: c.Function.Arguments})
			}
		case "tool":
			v.Items = append(v.Items, item{Kind: "result", ID: m.ToolCallID, Text: text, IsError: strings.HasPrefix(text, "Error: ")})
		default:
			t.Errorf("openai message with role %q", m.Role)
		}
	}
	return v
}

// openaiContent reads a message's content: a string, or parts of text and images.
func openaiContent(t *testing.T, raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, false
	}
	var parts []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		t.Fatalf("openai content %s: %v", raw, err)
	}
	var texts []string
	image := false
	for _, p := range parts {
		switch p.Type {
		case "text":
			texts = append(texts, p.Text)
		case "image_url":
			image = strings.HasPrefix(p.ImageURL.URL, "data:image/")
		}
	}
	return strings.Join(texts, "\n"), image
}

// anthropicAPI is Anthropic messages, non-streaming.
var anthropicAPI = api{
	name: "anthropic", provider: ProviderAnthropic, path: "/v1/messages",
	baseURL: func(srv string) string { return srv },
	call: func(id, name, args string) reply {
		return reply{body: anthropicBody([]any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": json.RawMessage(args)}}, "tool_use")}
	},
	text: func(s string) reply {
		return reply{body: anthropicBody([]any{map[string]any{"type": "text", "text": s}}, "end_turn")}
	},
	refusal: func(s string) reply {
		return reply{body: anthropicBody([]any{map[string]any{"type": "text", "text": s}}, "refusal")}
	},
	fail: func(status int, msg string) reply {
		kind := map[int]string{429: "rate_limit_error", 500: "api_error", 529: "overloaded_error", 401: "authentication_error"}[status]
		if kind == "" {
			kind = "invalid_request_error"
		}
		b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": kind, "message": msg}})
		return reply{status: status, body: string(b)}
	},
	view: anthropicView,
	// The SDK sends the key as a bearer token; the API also takes X-Api-Key.
	key: func(h http.Header) string {
		if k := h.Get("X-Api-Key"); k != "" {
			return k
		}
		return strings.TrimPrefix(h.Get("Authorization"), "Bearer ")
	},
}

func anthropicBody(content []any, stop string) string {
	b, _ := json.Marshal(map[string]any{"id": "msg_test", "type": "message", "role": "assistant", "model": "test-model",
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": usageIn, "output_tokens": usageOut}})
	return string(b)
}

func anthropicView(t *testing.T, body []byte) view {
	t.Helper()
	var req struct {
		Model  string `json:"model"`
		System []struct {
			Text string `json:"text"`
		} `json:"system"`
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				Type      string          `json:"type"`
				Text      string          `json:"text"`
				ID        string          `json:"id"`
				Name      string          `json:"name"`
				Input     json.RawMessage `json:"input"`
				ToolUseID string          `json:"tool_use_id"`
				IsError   bool            `json:"is_error"`
				Content   json.RawMessage `json:"content"`
			} `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"input_schema"`
		} `json:"tools"`
		Stream bool `json:"stream"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("anthropic request is not JSON: %v", err)
	}
	if req.Stream {
		t.Error("anthropic request asks for streaming")
	}
	v := view{Model: req.Model}
	for _, s := range req.System {
		v.System += s.Text
	}
	for _, tl := range req.Tools {
		if tl.InputSchema["type"] != "object" {
			t.Errorf("tool %s: input_schema type %v", tl.Name, tl.InputSchema["type"])
		}
		v.Tools = append(v.Tools, tl.Name)
	}
	for i, m := range req.Messages {
		if want := []string{"user", "assistant"}[i%2]; m.Role != want {
			t.Errorf("anthropic message %d has role %s, want %s (roles alternate, user first)", i, m.Role, want)
		}
		seenOther := false
		for _, b := range m.Content {
			switch b.Type {
			case "text":
				seenOther = true
				v.Items = append(v.Items, item{Kind: m.Role, Text: b.Text})
			case "image":
				seenOther = true
				v.Items[len(v.Items)-1].Image = true
			case "tool_use":
				v.Items = append(v.Items, item{Kind: "call", ID: b.ID, Name: b.Name, Args: string(b.Input)})
			case "tool_result":
				if seenOther {
					t.Errorf("anthropic message %d: a tool_result after other content", i)
				}
				v.Items = append(v.Items, item{Kind: "result", ID: b.ToolUseID, Text: resultText(t, b.Content), IsError: b.IsError})
			default:
				t.Errorf("anthropic block of type %q", b.Type)
			}
		}
	}
	return v
}

// resultText reads a tool_result's content: a string or text blocks.
func resultText(t *testing.T, raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &blocks); err != nil {
		t.Fatalf("tool_result content %s: %v", raw, err)
	}
	var out []string
	for _, b := range blocks {
		out = append(out, b.Text)
	}
	return strings.Join(out, "\n")
}

var apis = []api{openaiAPI, anthropicAPI}

// clock is a fake clock: Sleep advances it at once and remembers how long.
type clock struct {
	mu    sync.Mutex
	now   time.Time
	slept []time.Duration
}

func newClock() *clock { return &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.slept = append(c.slept, d)
	return nil
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func (c *clock) sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.slept...)
}

// testKey is the API key the tests put in the environment; it must reach the fake in the
// provider's header and nowhere in any record.
const testKey = "sk-test-0123456789abcdef"

// keyEnv names the test's key variable.
const keyEnv = "OBSERVATORY_TEST_MODEL_KEY"

// planner builds a planner for intent on the given fakes, in order, with a fake clock and no
// jitter (each backoff is half its span).
func planner(t *testing.T, intent string, cfg Config, fakes ...*scripted) (*Planner, *clock) {
	t.Helper()
	t.Setenv(keyEnv, testKey)
	for i, f := range fakes {
		cfg.Models = append(cfg.Models, f.model(fmt.Sprintf("model-%d", i+1), keyEnv))
	}
	p, err := New(taskOf(intent), cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := newClock()
	p.Now, p.Sleep, p.Jitter = c.Now, c.Sleep, func() float64 { return 0 }
	return p, c
}
