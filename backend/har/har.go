// Package har writes one attempt's recorded network requests as an HTTP Archive (HAR 1.2),
// the format browsers' developer tools and HAR viewers open. Each step is a HAR page, and
// each request an entry of the step it was recorded in.
package har

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"observatory/backend/agent"
)

// Version is the HAR version written.
const Version = "1.2"

// Log is a HAR document's log.
type Log struct {
	Version string  `json:"version"`
	Creator Creator `json:"creator"`
	Pages   []Page  `json:"pages"`
	Entries []Entry `json:"entries"`
	Comment string  `json:"comment,omitempty"`
}

// Creator names the program that wrote the file.
type Creator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Page is one step of the attempt.
type Page struct {
	StartedDateTime string      `json:"startedDateTime"`
	ID              string      `json:"id"`
	Title           string      `json:"title"`
	PageTimings     PageTimings `json:"pageTimings"`
}

// PageTimings are unknown for a step: it is not a page load.
type PageTimings struct {
	OnContentLoad int64 `json:"onContentLoad"`
	OnLoad        int64 `json:"onLoad"`
}

// Entry is one request with its response.
type Entry struct {
	PageRef         string   `json:"pageref"`
	StartedDateTime string   `json:"startedDateTime"`
	Time            int64    `json:"time"`
	Request         Request  `json:"request"`
	Response        Response `json:"response"`
	Cache           struct{} `json:"cache"`
	Timings         Timings  `json:"timings"`
	// ResourceType is the browser's word for what asked, as Chrome's HAR files name it.
	ResourceType string `json:"_resourceType"`
}

// NameValue is a header or a query parameter.
type NameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Request is an entry's request.
type Request struct {
	Method      string      `json:"method"`
	URL         string      `json:"url"`
	HTTPVersion string      `json:"httpVersion"`
	Cookies     []NameValue `json:"cookies"`
	Headers     []NameValue `json:"headers"`
	QueryString []NameValue `json:"queryString"`
	PostData    *PostData   `json:"postData,omitempty"`
	HeadersSize int64       `json:"headersSize"`
	BodySize    int64       `json:"bodySize"`
}

// PostData is a request's recorded body.
type PostData struct {
	MimeType string `json:"mimeType"`
	Text     string `json:"text"`
}

// Response is an entry's response; a request that got none has status 0 and its failure in
// Error, as Chrome's HAR files do.
type Response struct {
	Status      int         `json:"status"`
	StatusText  string      `json:"statusText"`
	HTTPVersion string      `json:"httpVersion"`
	Cookies     []NameValue `json:"cookies"`
	Headers     []NameValue `json:"headers"`
	Content     Content     `json:"content"`
	RedirectURL string      `json:"redirectURL"`
	HeadersSize int64       `json:"headersSize"`
	BodySize    int64       `json:"bodySize"`
	Error       string      `json:"_error,omitempty"`
}

// Content is a response's body: its size, type and, when recorded, its text.
type Content struct {
	Size     int64  `json:"size"`
	MimeType string `json:"mimeType"`
	Text     string `json:"text,omitempty"`
	Comment  string `json:"comment,omitempty"`
}

// Timings split an entry's time; only the whole is recorded, so it is all "wait".
type Timings struct {
	Blocked int64 `json:"blocked"`
	DNS     int64 `json:"dns"`
	Connect int64 `json:"connect"`
	Send    int64 `json:"send"`
	Wait    int64 `json:"wait"`
	Receive int64 `json:"receive"`
	SSL     int64 `json:"ssl"`
}

// Build is the HAR log of attempt a: a page per step and an entry per recorded request.
// Credential headers and secret-named parameters are masked again, so a run imported from
// a file that did not mask them still exports none.
func Build(a agent.Attempt, creator Creator) Log {
	log := Log{Version: Version, Creator: creator, Pages: []Page{}, Entries: []Entry{},
		Comment: fmt.Sprintf("attempt %s of task %s: %s", a.Slug, a.Task.Name, a.Terminal)}
	at := func(ms int64) string {
		return a.Started.Add(time.Duration(ms) * time.Millisecond).UTC().Format(time.RFC3339Nano)
	}
	for _, s := range a.Steps {
		id := fmt.Sprintf("step-%d", s.Index+1)
		log.Pages = append(log.Pages, Page{StartedDateTime: at(s.StartMS), ID: id,
			Title: fmt.Sprintf("Step %d: %s", s.Index+1, s.Action.Description), PageTimings: PageTimings{-1, -1}})
		for _, r := range s.Traffic.Redact(nil).Requests {
			log.Entries = append(log.Entries, entry(id, at(r.StartMS), r))
		}
	}
	return log
}

// Write writes a's HAR file to w.
func Write(w io.Writer, a agent.Attempt, creator Creator) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Log Log `json:"log"`
	}{Build(a, creator)})
}

func entry(page, started string, r agent.Request) Entry {
	req := Request{Method: r.Method, URL: r.URL, HTTPVersion: "HTTP/1.1", Cookies: []NameValue{},
		Headers: headers(r.RequestHeaders), QueryString: query(r.URL), HeadersSize: -1, BodySize: -1}
	if b := r.RequestBody; b != nil {
		req.PostData = &PostData{MimeType: b.MimeType, Text: b.Text}
		if !b.Truncated {
			req.BodySize = int64(len(b.Text))
		}
	}
	resp := Response{Status: r.Status, StatusText: r.StatusText, HTTPVersion: "HTTP/1.1", Cookies: []NameValue{},
		Headers: headers(r.ResponseHeaders), RedirectURL: agent.HeaderValue(r.ResponseHeaders, "location"),
		HeadersSize: -1, BodySize: r.Size, Error: r.Failure,
		Content: Content{Size: max(r.Size, 0), MimeType: mimeType(r)}}
	if r.Status == 0 {
		resp.HTTPVersion = ""
	}
	if b := r.ResponseBody; b != nil {
		resp.Content.Text = b.Text
		if b.Truncated {
			resp.Content.Comment = "the text is only the start of the body"
		}
	}
	return Entry{PageRef: page, StartedDateTime: started, Time: r.DurationMS, Request: req, Response: resp,
		Timings: Timings{Blocked: -1, DNS: -1, Connect: -1, Wait: r.DurationMS, SSL: -1}, ResourceType: r.ResourceType}
}

func headers(hs []agent.Header) []NameValue {
	out := make([]NameValue, len(hs))
	for i, h := range hs {
		out[i] = NameValue{Name: h.Name, Value: h.Value}
	}
	return out
}

// query lists the URL's query parameters as written (a masked value stays masked).
func query(raw string) []NameValue {
	out := []NameValue{}
	u, err := url.Parse(raw)
	if err != nil || u.RawQuery == "" {
		return out
	}
	for _, p := range strings.Split(u.RawQuery, "&") {
		name, value, _ := strings.Cut(p, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if v, err := url.QueryUnescape(value); err == nil {
			value = v
		}
		out = append(out, NameValue{Name: name, Value: value})
	}
	return out
}

// mimeType is the response's content type, or HAR's word for unknown.
func mimeType(r agent.Request) string {
	if v := agent.HeaderValue(r.ResponseHeaders, "content-type"); v != "" {
		return v
	}
	if r.ResponseBody != nil && r.ResponseBody.MimeType != "" {
		return r.ResponseBody.MimeType
	}
	return "x-unknown"
}
