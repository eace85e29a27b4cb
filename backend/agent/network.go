package agent

import (
	"context"
	"strings"
	"time"
)

// Limits on what a page's network and console record may hold. The browser adapter keeps
// to them while recording, and a run file that exceeds them is refused on import.
const (
	// MaxStepRequests is the most requests one step keeps; MaxAttemptRequests the most an
	// attempt keeps over all its steps. Requests past either are counted as dropped.
	MaxStepRequests    = 100
	MaxAttemptRequests = 500
	// MaxStepMessages is the most console messages, and separately page errors, one step
	// keeps; MaxAttemptMessages the most an attempt keeps of each.
	MaxStepMessages    = 100
	MaxAttemptMessages = 500
	// MaxBodyBytes bounds one recorded request or response body; MaxAttemptBodyBytes all the
	// bodies of one attempt. A body past either is cut there and marked truncated.
	MaxBodyBytes        = 64 << 10
	MaxAttemptBodyBytes = 512 << 10
	// MaxHeaders is the most headers one request or response keeps.
	MaxHeaders = 64
	// MaxTextBytes bounds a URL, a header value, a console message's text, a page error's
	// message or stack, and a failure text.
	MaxTextBytes = 4 << 10
)

// Header is one HTTP header as recorded: a secret's value is already masked.
type Header struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Body is a request's or response's body as recorded, when bodies are recorded: text (a
// binary body is not kept), cut at MaxBodyBytes or at what the attempt's budget had left.
type Body struct {
	MimeType string `json:"mime_type,omitempty"`
	Text     string `json:"text"`
	// Truncated is set when Text is only the start of the body.
	Truncated bool `json:"truncated,omitempty"`
}

// Request is one HTTP request the page made, with its response or why it had none.
type Request struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	// ResourceType is the browser's word for what asked: document, script, fetch, xhr, ...
	ResourceType string `json:"resource_type"`
	// Status is the response's HTTP status; 0 when the request got no response.
	Status     int    `json:"status,omitempty"`
	StatusText string `json:"status_text,omitempty"`
	// StartMS is when the request started, in milliseconds since the attempt started.
	StartMS int64 `json:"start_ms"`
	// DurationMS runs from the start to the response's last byte, or to the failure; for a
	// response whose body the page never read (the browser then never finishes it), to its
	// headers, with Size unknown and no response body.
	DurationMS int64 `json:"duration_ms"`
	// Size is the response body's size in bytes as it came over the network; -1 unknown.
	Size int64 `json:"size"`
	// Failure is the browser's reason a request failed (net::ERR_..., blocked); empty when
	// it did not.
	Failure string `json:"failure,omitempty"`
	// Refused is set when the page's origins guard failed the request before it left (outside
	// the task's origins, or held and not approved): the origin never heard of it.
	Refused         bool     `json:"refused,omitempty"`
	RequestHeaders  []Header `json:"request_headers,omitempty"`
	ResponseHeaders []Header `json:"response_headers,omitempty"`
	RequestBody     *Body    `json:"request_body,omitempty"`
	ResponseBody    *Body    `json:"response_body,omitempty"`
}

// Failed reports whether the request went wrong: the browser failed it, the guard refused it,
// or the server answered with an error status (400 and up).
func (r Request) Failed() bool { return r.Failure != "" || r.Refused || r.Status >= 400 }

// HeaderValue is the value of the header named name in hs, in any case; "" when absent.
func HeaderValue(hs []Header, name string) string {
	for _, h := range hs {
		if strings.EqualFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}

// ConsoleMessage is one message the page wrote to its console.
type ConsoleMessage struct {
	// Level is the console method's kind: log, debug, info, warning, error, ...
	Level string `json:"level"`
	Text  string `json:"text"`
	// Location is where the message was written, "URL:line:column"; empty when unknown.
	Location string `json:"location,omitempty"`
	// AtMS is when it was written, in milliseconds since the attempt started.
	AtMS int64 `json:"at_ms"`
}

// PageError is an exception the page's scripts threw and nothing caught.
type PageError struct {
	Message string `json:"message"`
	Stack   string `json:"stack,omitempty"`
	AtMS    int64  `json:"at_ms"`
}

// Dropped counts what a step's record left out because a per-step or per-attempt limit was
// reached.
type Dropped struct {
	Requests int `json:"requests,omitempty"`
	Console  int `json:"console,omitempty"`
	Errors   int `json:"errors,omitempty"`
}

// Any reports whether anything was dropped.
func (d Dropped) Any() bool { return d != Dropped{} }

// Traffic is what a page recorded in the network and its console during one step. A page
// records each item in the step during which it ended (a request when its response finished
// or it failed, a message when it was written); once the attempt ends, a request is filed
// under the own step that sent it (see fileBySender). What happened between two steps (the
// planner thinking, the first load) belongs to the next step. What happens after the last
// step is not recorded.
type Traffic struct {
	Requests []Request        `json:"requests,omitempty"`
	Console  []ConsoleMessage `json:"console,omitempty"`
	Errors   []PageError      `json:"page_errors,omitempty"`
	Dropped  Dropped          `json:"dropped,omitzero"`
}

// Watcher is a Page that records its network requests, console messages and page errors.
// The executor takes what it recorded at the end of every step.
type Watcher interface {
	// Traffic returns what the page recorded since the last call, its times counted from
	// epoch (the attempt's start), with no secret masked yet. For the attempt's last step,
	// final first waits a bounded time for the requests still in flight to end, since
	// nothing after that step is recorded.
	Traffic(epoch time.Time, final bool) Traffic
}

// TimedWatcher is a Watcher that can cut its record at a time the browser gave: an observed
// step's requests are those sent before the next input, whenever they ended.
type TimedWatcher interface {
	// TrafficUntil is Traffic (not final) for the requests sent, and the messages that came,
	// before until; what came later stays for the next call.
	TrafficUntil(epoch, until time.Time) Traffic
}

// Settler is a Page that can wait for its own requests: the executor calls Settle before
// the attempt's last look at the page.
type Settler interface {
	// Settle waits a bounded time until no request the page sent waits for its answer, so
	// that the attempt's last look at the page sees what the page made of its answers (a
	// save's notice shown once the server answered, after the record already changed).
	Settle(ctx context.Context)
}
