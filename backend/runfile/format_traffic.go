package runfile

import (
	"observatory/backend/agent"
)

// A step's network requests, console messages and page errors in a run file, mapped
// explicitly to and from the domain. All of it is optional in version 2: a file written
// before they were recorded has none.

type headerV2 struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type bodyV2 struct {
	MimeType  string `json:"mime_type,omitempty"`
	Text      string `json:"text"`
	Truncated bool   `json:"truncated,omitempty"`
}

type requestV2 struct {
	Method          string     `json:"method"`
	URL             string     `json:"url"`
	ResourceType    string     `json:"resource_type"`
	Status          int        `json:"status,omitempty"`
	StatusText      string     `json:"status_text,omitempty"`
	StartMS         int64      `json:"start_ms"`
	DurationMS      int64      `json:"duration_ms"`
	Size            int64      `json:"size"`
	Failure         string     `json:"failure,omitempty"`
	Refused         bool       `json:"refused,omitempty"`
	RequestHeaders  []headerV2 `json:"request_headers,omitempty"`
	ResponseHeaders []headerV2 `json:"response_headers,omitempty"`
	RequestBody     *bodyV2    `json:"request_body,omitempty"`
	ResponseBody    *bodyV2    `json:"response_body,omitempty"`
}

type consoleV2 struct {
	Level    string `json:"level"`
	Text     string `json:"text"`
	Location string `json:"location,omitempty"`
	AtMS     int64  `json:"at_ms"`
}

type pageErrorV2 struct {
	Message string `json:"message"`
	Stack   string `json:"stack,omitempty"`
	AtMS    int64  `json:"at_ms"`
}

type droppedV2 struct {
	Requests int `json:"requests,omitempty"`
	Console  int `json:"console,omitempty"`
	Errors   int `json:"errors,omitempty"`
}

// trafficV2 is embedded in stepV2: its members are the step's own.
type trafficV2 struct {
	Requests   []requestV2   `json:"requests,omitempty"`
	Console    []consoleV2   `json:"console,omitempty"`
	PageErrors []pageErrorV2 `json:"page_errors,omitempty"`
	Dropped    *droppedV2    `json:"dropped,omitempty"`
}

func fromTraffic(t agent.Traffic) trafficV2 {
	out := trafficV2{
		Requests: mapSlice(t.Requests, fromRequest),
		Console: mapSlice(t.Console, func(m agent.ConsoleMessage) consoleV2 {
			return consoleV2{Level: m.Level, Text: m.Text, Location: m.Location, AtMS: m.AtMS}
		}),
		PageErrors: mapSlice(t.Errors, func(e agent.PageError) pageErrorV2 {
			return pageErrorV2{Message: e.Message, Stack: e.Stack, AtMS: e.AtMS}
		}),
	}
	if d := t.Dropped; d.Any() {
		out.Dropped = &droppedV2{Requests: d.Requests, Console: d.Console, Errors: d.Errors}
	}
	return out
}

func fromRequest(r agent.Request) requestV2 {
	return requestV2{Method: r.Method, URL: r.URL, ResourceType: r.ResourceType, Status: r.Status, StatusText: r.StatusText,
		StartMS: r.StartMS, DurationMS: r.DurationMS, Size: r.Size, Failure: r.Failure, Refused: r.Refused,
		RequestHeaders: mapSlice(r.RequestHeaders, fromHeader), ResponseHeaders: mapSlice(r.ResponseHeaders, fromHeader),
		RequestBody: ptr(r.RequestBody, fromBody), ResponseBody: ptr(r.ResponseBody, fromBody)}
}

func fromHeader(h agent.Header) headerV2 { return headerV2{Name: h.Name, Value: h.Value} }

func fromBody(b agent.Body) bodyV2 {
	return bodyV2{MimeType: b.MimeType, Text: b.Text, Truncated: b.Truncated}
}

func (t trafficV2) toDomain() agent.Traffic {
	out := agent.Traffic{
		Requests: mapSlice(t.Requests, requestV2.toDomain),
		Console: mapSlice(t.Console, func(m consoleV2) agent.ConsoleMessage {
			return agent.ConsoleMessage{Level: m.Level, Text: m.Text, Location: m.Location, AtMS: m.AtMS}
		}),
		Errors: mapSlice(t.PageErrors, func(e pageErrorV2) agent.PageError {
			return agent.PageError{Message: e.Message, Stack: e.Stack, AtMS: e.AtMS}
		}),
	}
	if d := t.Dropped; d != nil {
		out.Dropped = agent.Dropped{Requests: d.Requests, Console: d.Console, Errors: d.Errors}
	}
	return out
}

func (r requestV2) toDomain() agent.Request {
	return agent.Request{Method: r.Method, URL: r.URL, ResourceType: r.ResourceType, Status: r.Status, StatusText: r.StatusText,
		StartMS: r.StartMS, DurationMS: r.DurationMS, Size: r.Size, Failure: r.Failure, Refused: r.Refused,
		RequestHeaders: mapSlice(r.RequestHeaders, headerV2.toDomain), ResponseHeaders: mapSlice(r.ResponseHeaders, headerV2.toDomain),
		RequestBody: ptr(r.RequestBody, bodyV2.toDomain), ResponseBody: ptr(r.ResponseBody, bodyV2.toDomain)}
}

func (h headerV2) toDomain() agent.Header { return agent.Header{Name: h.Name, Value: h.Value} }

func (b bodyV2) toDomain() agent.Body {
	return agent.Body{MimeType: b.MimeType, Text: b.Text, Truncated: b.Truncated}
}
