package runfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// trafficFile is goodFile with a network and console record on the second attempt's save.
func trafficFile() File {
	f := goodFile()
	f.Run.Attempts[1].Steps[1].Traffic = agent.Traffic{
		Requests: []agent.Request{{
			Method: "POST", URL: "http://127.0.0.1:1/api/save?token=••••••", ResourceType: "fetch",
			Status: 500, StatusText: "Internal Server Error", StartMS: 120, DurationMS: 35, Size: 48,
			RequestHeaders:  []agent.Header{{Name: "content-type", Value: "application/json"}, {Name: "authorization", Value: "••••••"}},
			ResponseHeaders: []agent.Header{{Name: "content-type", Value: "application/json"}},
			RequestBody:     &agent.Body{MimeType: "application/json", Text: `{"room":"south"}`},
			ResponseBody:    &agent.Body{MimeType: "application/json", Text: `{"error":"down"`, Truncated: true},
		}, {
			Method: "GET", URL: "http://127.0.0.1:2/lost", ResourceType: "fetch", StartMS: 160, Size: -1,
			Failure: "net::ERR_CONNECTION_REFUSED",
		}},
		Console: []agent.ConsoleMessage{{Level: "error", Text: "save failed with 500", Location: "http://127.0.0.1:1/:16:11", AtMS: 156}},
		Errors:  []agent.PageError{{Message: "kaboom", Stack: "Error: kaboom\n    at http://127.0.0.1:1/:18:30", AtMS: 170}},
		Dropped: agent.Dropped{Requests: 3, Console: 1},
	}
	return f
}

func TestTrafficSurvivesTheRoundTrip(t *testing.T) {
	want := trafficFile()
	data := encoded(t, want)
	for _, member := range []string{`"requests": [`, `"resource_type": "fetch"`, `"request_body": {`, `"console": [`, `"page_errors": [`, `"dropped": {`} {
		if !bytes.Contains(data, []byte(member)) {
			t.Errorf("the run file has no %s", member)
		}
	}
	got, err := Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	want.Run.Status = ""
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Decode(EncodeFile(f)) differs from f:\n got %+v\nwant %+v", got.Run.Attempts[1].Steps[1].Traffic, want.Run.Attempts[1].Steps[1].Traffic)
	}
}

// TestAnUnknownSizeIsWrittenAsUnknown exports a run recorded with a memory-cache hit's
// negative size: the run file says -1, unknown, and reads back.
func TestAnUnknownSizeIsWrittenAsUnknown(t *testing.T) {
	f := trafficFile()
	f.Run.Attempts[1].Steps[1].Traffic.Requests[1].Size = -279
	got, err := Decode(bytes.NewReader(encoded(t, f)))
	if err != nil {
		t.Fatal(err)
	}
	if size := got.Run.Attempts[1].Steps[1].Traffic.Requests[1].Size; size != -1 {
		t.Errorf("the size was written as %d, want -1", size)
	}
	if size := f.Run.Attempts[1].Steps[1].Traffic.Requests[1].Size; size != -279 {
		t.Errorf("exporting changed the run it was given: size %d", size)
	}
}

func TestOversizedTrafficIsRefusedWithItsPath(t *testing.T) {
	req := func(url string) agent.Request {
		return agent.Request{Method: "GET", URL: url, ResourceType: "fetch", Size: -1}
	}
	many := func(n int) []agent.Request {
		out := make([]agent.Request, n)
		for i := range out {
			out[i] = req("http://127.0.0.1:1/")
		}
		return out
	}
	big := &agent.Body{Text: strings.Repeat("x", agent.MaxBodyBytes)}
	tests := []struct {
		name, path, problem string
		edit                func(*File)
	}{
		{"too many requests in a step", "attempts[0].steps[1].requests", "101 items: a step records at most 100",
			func(f *File) { f.Run.Attempts[0].Steps[1].Requests = many(agent.MaxStepRequests + 1) }},
		{"too many requests in an attempt", "attempts[1].steps[5].requests", "600 items in the attempt so far: an attempt records at most 500",
			func(f *File) {
				steps := f.Run.Attempts[1].Steps
				for i := range 6 {
					s := steps[len(steps)-1]
					s.Index, s.Requests = i, many(agent.MaxStepRequests)
					f.Run.Attempts[1].Steps = append(f.Run.Attempts[1].Steps[:i], s)
				}
			}},
		{"a body past 64 KiB", "attempts[0].steps[0].requests[0].response_body.text", "65537 bytes: a body records at most 65536",
			func(f *File) {
				r := req("http://127.0.0.1:1/")
				r.ResponseBody = &agent.Body{Text: strings.Repeat("x", agent.MaxBodyBytes+1)}
				f.Run.Attempts[0].Steps[0].Requests = []agent.Request{r}
			}},
		{"bodies past the attempt's budget", "attempts[0].steps[2].requests[2].request_body.text", "589824 bytes of bodies in the attempt so far",
			func(f *File) {
				for s := range 3 {
					var rs []agent.Request
					for range 3 {
						r := req("http://127.0.0.1:1/")
						r.RequestBody = big
						rs = append(rs, r)
					}
					f.Run.Attempts[0].Steps[s].Requests = rs
				}
			}},
		{"a 5 KiB URL", "attempts[0].steps[0].requests[0].url", "5120 bytes: a text here records at most 4096",
			func(f *File) { f.Run.Attempts[0].Steps[0].Requests = []agent.Request{req(strings.Repeat("u", 5120))} }},
		{"too many headers", "attempts[0].steps[0].requests[0].request_headers", "65 headers",
			func(f *File) {
				r := req("http://127.0.0.1:1/")
				r.RequestHeaders = make([]agent.Header, agent.MaxHeaders+1)
				f.Run.Attempts[0].Steps[0].Requests = []agent.Request{r}
			}},
		{"a negative status", "attempts[0].steps[0].requests[0].status", "-1: an HTTP status",
			func(f *File) {
				r := req("http://127.0.0.1:1/")
				r.Status = -1
				f.Run.Attempts[0].Steps[0].Requests = []agent.Request{r}
			}},
		{"a size below -1", "attempts[0].steps[0].requests[0].size", "-2: a size",
			func(f *File) {
				r := req("http://127.0.0.1:1/")
				r.Size = -2
				f.Run.Attempts[0].Steps[0].Requests = []agent.Request{r}
			}},
		{"too many console messages", "attempts[0].steps[0].console", "101 items",
			func(f *File) {
				f.Run.Attempts[0].Steps[0].Console = make([]agent.ConsoleMessage, agent.MaxStepMessages+1)
			}},
		{"a negative error time", "attempts[0].steps[0].page_errors[0].at_ms", "-3 ms",
			func(f *File) { f.Run.Attempts[0].Steps[0].Errors = []agent.PageError{{Message: "x", AtMS: -3}} }},
		{"a negative dropped count", "attempts[0].steps[0].dropped.console", "-4: a count",
			func(f *File) { f.Run.Attempts[0].Steps[0].Dropped.Console = -4 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := goodFile()
			tt.edit(&f)
			data, err := json.Marshal(f.format()) // not EncodeFile, which refuses to write such a file
			if err != nil {
				t.Fatal(err)
			}
			_, err = Decode(bytes.NewReader(data))
			var refused *Error
			if !errors.As(err, &refused) || refused.Path != tt.path || !strings.Contains(refused.Problem, tt.problem) {
				t.Errorf("Decode = %v\nwant an *Error at %s containing %q", err, tt.path, tt.problem)
			}
		})
	}
}

func TestAMillionRequestsAreRefusedUnread(t *testing.T) {
	// A hostile file's million requests: the file is refused by its size before any of it
	// is decoded, and nothing is built from it.
	var b bytes.Buffer
	b.WriteString(`{"schema":"observatory.run/v2","exported":"2025-03-14T10:26:53Z","run":{"id":"x","task":"fake","created":"2025-03-14T09:26:53Z","source":"live"},"attempts":[{"steps":[{"requests":[`)
	for i := range 1_000_000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"method":"GET","url":"/","resource_type":"fetch","start_ms":0,"duration_ms":0,"size":0}`)
	}
	b.WriteString(`]}]}]}`)
	_, err := Decode(&b)
	var refused *Error
	if !errors.As(err, &refused) || !strings.Contains(refused.Problem, "larger than the 8 MiB limit") {
		t.Errorf("Decode of a million requests = %v, want a refusal for its size", err)
	}
}
