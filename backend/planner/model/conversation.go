package model

import "encoding/json"

// role says who wrote a message: the user side (the planner) or the model.
type role string

const (
	roleUser      role = "user"
	roleAssistant role = "assistant"
)

// message is one message of the conversation in a form both providers' adapters translate:
// a user message carries the results of the previous message's tool calls first, then text
// and an optional image; an assistant message carries text and tool calls.
type message struct {
	Role    role
	Text    string
	Image   *image
	Calls   []toolCall
	Results []toolResult
	// Summary marks the message compaction wrote in place of older turns.
	Summary bool
}

// image is a screenshot shown to the model.
type image struct {
	MediaType string // "image/jpeg"
	Data      []byte
}

// toolCall is one tool call the model made; Args is its JSON text as sent, possibly invalid.
type toolCall struct {
	ID   string
	Name string
	Args string
}

// toolResult answers the tool call with the same ID.
type toolResult struct {
	CallID  string
	Content string
	IsError bool
}

// request is what the planner asks a provider: the conversation, the tools and the bounds.
type request struct {
	System    string
	Messages  []message
	Tools     []tool
	MaxTokens int
}

// response is a provider's answer, reduced to what the planner reads.
type response struct {
	Text  string
	Calls []toolCall
	// Refusal is set when the model declined to answer (its stated refusal, or the reason the
	// provider stopped it); a refusal rotates to the next model.
	Refusal   string
	InTokens  int64
	OutTokens int64
}

// objectArgs is a call's arguments as a JSON object, for providers that require one: the
// arguments themselves when they are an object, else the raw text wrapped as {"raw": ...}.
func objectArgs(args string) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &obj) == nil && obj != nil {
		return json.RawMessage(args)
	}
	b, _ := json.Marshal(map[string]string{"raw": args})
	return b
}

// estimateTokens is a provider-neutral estimate of a request's prompt size: about four
// characters a token, a little per message and call, and a flat cost per image.
func estimateTokens(system string, tools []tool, msgs []message) int {
	chars := len(system)
	for _, t := range tools {
		chars += len(t.Name) + len(t.Description) + len(t.schemaJSON())
	}
	n := 0
	for _, m := range msgs {
		n += messageTokens(m)
	}
	return chars/4 + n
}

// imageTokens is what one screenshot is counted as.
const imageTokens = 1000

// messageTokens estimates one message.
func messageTokens(m message) int {
	chars := len(m.Text)
	for _, c := range m.Calls {
		chars += len(c.ID) + len(c.Name) + len(c.Args) + 16
	}
	for _, r := range m.Results {
		chars += len(r.CallID) + len(r.Content) + 16
	}
	n := chars/4 + 4
	if m.Image != nil {
		n += imageTokens
	}
	return n
}
