package providertest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// View is a request as either API sent it, reduced to what tests check: the model, the
// system prompt, the tools offered and the conversation in order.
type View struct {
	Model  string
	System string
	Tools  []string
	Items  []Item
}

// Item is one element of the conversation: a user text, an assistant text, a tool call or a
// tool result, in the order the API carries them.
type Item struct {
	Kind    string // "user", "assistant", "call", "result"
	Text    string
	ID      string // the call's ID, or the ID a result answers
	Name    string
	Args    string
	IsError bool
	Image   bool
}

// FirstUser is the text of the conversation's first user item.
func (v View) FirstUser() string {
	for _, it := range v.Items {
		if it.Kind == "user" {
			return it.Text
		}
	}
	return ""
}

// CheckPairs fails t unless every tool call in v is answered by exactly one result before
// the conversation goes on, and every result answers such a call.
func (v View) CheckPairs(t testing.TB) {
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

// API is one provider's wire format: where its requests go, how its replies are written and
// how its requests read.
type API struct {
	Name string
	// Provider is the provider's name as model configurations give it: "openai", "anthropic".
	Provider string
	Path     string
	BaseURL  func(srv string) string
	// Call is a reply making one tool call, Text one with only text, Refusal the model
	// declining, and Fail an API error with its status.
	Call    func(id, name, args string) Reply
	Text    func(s string) Reply
	Refusal func(s string) Reply
	Fail    func(status int, msg string) Reply
	View    func(t testing.TB, body []byte) View
	// Key reads the API key a request carried.
	Key func(h http.Header) string
}

// UsageIn and UsageOut are the input and output tokens every scripted reply reports.
const UsageIn, UsageOut = 120, 30

// OpenAI is OpenAI chat completions, non-streaming, as every compatible server speaks them.
var OpenAI = API{
	Name: "openai", Provider: "openai", Path: "/v1/chat/completions",
	BaseURL: func(srv string) string { return srv + "/v1" },
	Call: func(id, name, args string) Reply {
		return Reply{Body: openaiBody(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{
			map[string]any{"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": args}}}}, "tool_calls")}
	},
	Text: func(s string) Reply {
		return Reply{Body: openaiBody(map[string]any{"role": "assistant", "content": s}, "stop")}
	},
	Refusal: func(s string) Reply {
		return Reply{Body: openaiBody(map[string]any{"role": "assistant", "content": nil, "refusal": s}, "stop")}
	},
	Fail: func(status int, msg string) Reply {
		b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "test_error", "param": nil, "code": nil}})
		return Reply{Status: status, Body: string(b)}
	},
	View: openaiView,
	Key:  func(h http.Header) string { return strings.TrimPrefix(h.Get("Authorization"), "Bearer ") },
}

func openaiBody(msg map[string]any, finish string) string {
	b, _ := json.Marshal(map[string]any{"id": "chatcmpl-test", "object": "chat.completion", "created": 1, "model": "test-model",
		"choices": []any{map[string]any{"index": 0, "finish_reason": finish, "message": msg, "logprobs": nil}},
		"usage":   map[string]any{"prompt_tokens": UsageIn, "completion_tokens": UsageOut, "total_tokens": UsageIn + UsageOut}})
	return string(b)
}

func openaiView(t testing.TB, body []byte) View {
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
	v := View{Model: req.Model}
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
			v.Items = append(v.Items, Item{Kind: "user", Text: text, Image: image})
		case "assistant":
			if text != "" {
				v.Items = append(v.Items, Item{Kind: "assistant", Text: text})
			}
			for _, c := range m.ToolCalls {
				v.Items = append(v.Items, Item{Kind: "call", ID: c.ID, Name: c.Function.Name, Args: c.Function.Arguments})
			}
		case "tool":
			v.Items = append(v.Items, Item{Kind: "result", ID: m.ToolCallID, Text: text, IsError: strings.HasPrefix(text, "Error: ")})
		default:
			t.Errorf("openai message with role %q", m.Role)
		}
	}
	return v
}

// openaiContent reads a message's content: a string, or parts of text and images.
func openaiContent(t testing.TB, raw json.RawMessage) (string, bool) {
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

// Anthropic is Anthropic messages, non-streaming.
var Anthropic = API{
	Name: "anthropic", Provider: "anthropic", Path: "/v1/messages",
	BaseURL: func(srv string) string { return srv },
	Call: func(id, name, args string) Reply {
		return Reply{Body: anthropicBody([]any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": json.RawMessage(args)}}, "tool_use")}
	},
	Text: func(s string) Reply {
		return Reply{Body: anthropicBody([]any{map[string]any{"type": "text", "text": s}}, "end_turn")}
	},
	Refusal: func(s string) Reply {
		return Reply{Body: anthropicBody([]any{map[string]any{"type": "text", "text": s}}, "refusal")}
	},
	Fail: func(status int, msg string) Reply {
		kind := map[int]string{429: "rate_limit_error", 500: "api_error", 529: "overloaded_error", 401: "authentication_error"}[status]
		if kind == "" {
			kind = "invalid_request_error"
		}
		b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": kind, "message": msg}})
		return Reply{Status: status, Body: string(b)}
	},
	View: anthropicView,
	// The SDK sends the key as a bearer token; the API also takes X-Api-Key.
	Key: func(h http.Header) string {
		if k := h.Get("X-Api-Key"); k != "" {
			return k
		}
		return strings.TrimPrefix(h.Get("Authorization"), "Bearer ")
	},
}

func anthropicBody(content []any, stop string) string {
	b, _ := json.Marshal(map[string]any{"id": "msg_test", "type": "message", "role": "assistant", "model": "test-model",
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": UsageIn, "output_tokens": UsageOut}})
	return string(b)
}

func anthropicView(t testing.TB, body []byte) View {
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
	v := View{Model: req.Model}
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
				v.Items = append(v.Items, Item{Kind: m.Role, Text: b.Text})
			case "image":
				seenOther = true
				v.Items[len(v.Items)-1].Image = true
			case "tool_use":
				v.Items = append(v.Items, Item{Kind: "call", ID: b.ID, Name: b.Name, Args: string(b.Input)})
			case "tool_result":
				if seenOther {
					t.Errorf("anthropic message %d: a tool_result after other content", i)
				}
				v.Items = append(v.Items, Item{Kind: "result", ID: b.ToolUseID, Text: resultText(t, b.Content), IsError: b.IsError})
			default:
				t.Errorf("anthropic block of type %q", b.Type)
			}
		}
	}
	return v
}

// resultText reads a tool_result's content: a string or text blocks.
func resultText(t testing.TB, raw json.RawMessage) string {
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

// APIs are both wire formats, for tests that run against each.
var APIs = []API{OpenAI, Anthropic}
