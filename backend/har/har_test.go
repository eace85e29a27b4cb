package har

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
)

var t0 = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)

// savedAttempt has a load step and a submit step whose save got 500, and a lost request; one
// of its headers was recorded unmasked, as a hand-made file could hold it.
func savedAttempt() agent.Attempt {
	load := agent.Step{Index: 0, Action: agent.Action{Description: "Open the form"}, StartMS: 0,
		Traffic: agent.Traffic{Requests: []agent.Request{{Method: "GET", URL: "http://127.0.0.1:1/", ResourceType: "document",
			Status: 200, StatusText: "OK", StartMS: 5, DurationMS: 12, Size: 900,
			ResponseHeaders: []agent.Header{{Name: "Content-Type", Value: "text/html"}}}}}}
	save := agent.Step{Index: 1, Action: agent.Action{Description: "Save"}, StartMS: 300,
		Traffic: agent.Traffic{Requests: []agent.Request{{
			Method: "POST", URL: "http://127.0.0.1:1/api/save?token=••••••&q=a%20b", ResourceType: "fetch",
			Status: 500, StatusText: "Internal Server Error", StartMS: 310, DurationMS: 40, Size: 17,
			RequestHeaders:  []agent.Header{{Name: "Authorization", Value: "Bearer unmasked-in-file"}, {Name: "Content-Type", Value: "application/json"}},
			ResponseHeaders: []agent.Header{{Name: "Content-Type", Value: "application/json"}},
			RequestBody:     &agent.Body{MimeType: "application/json", Text: `{"room":"north"}`},
			ResponseBody:    &agent.Body{MimeType: "application/json", Text: `{"error":"down"}`},
		}, {
			Method: "GET", URL: "http://127.0.0.1:2/lost", ResourceType: "fetch", StartMS: 360, DurationMS: 2, Size: -1,
			Failure: "net::ERR_CONNECTION_REFUSED",
		}}}}
	return agent.Attempt{Slug: "save-refused", Task: agent.Task{Name: "booking"}, Terminal: agent.Rejected, Started: t0,
		Steps: []agent.Step{load, save}}
}

func TestHARHasEveryRequestAsAnEntryOfItsStep(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, savedAttempt(), Creator{Name: "Observatory", Version: "test"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "unmasked-in-file") {
		t.Error("the HAR shows an Authorization value")
	}
	var doc struct {
		Log struct {
			Version string `json:"version"`
			Creator struct{ Name string }
			Pages   []struct{ ID, Title, StartedDateTime string }
			Entries []struct {
				PageRef         string `json:"pageref"`
				StartedDateTime string
				Time            int64
				Request         struct {
					Method, URL string
					Headers     []NameValue
					QueryString []NameValue
					PostData    *PostData
					BodySize    int64
				}
				Response struct {
					Status     int
					StatusText string
					Content    Content
					BodySize   int64
					Error      string `json:"_error"`
				}
				Timings      Timings
				ResourceType string `json:"_resourceType"`
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("the HAR is not JSON: %v", err)
	}
	l := doc.Log
	if l.Version != "1.2" || l.Creator.Name != "Observatory" || len(l.Pages) != 2 || len(l.Entries) != 3 {
		t.Fatalf("log: version %q creator %q, %d pages, %d entries; want 1.2, Observatory, 2, 3", l.Version, l.Creator.Name, len(l.Pages), len(l.Entries))
	}
	if l.Pages[1].ID != "step-2" || l.Pages[1].Title != "Step 2: Save" || l.Pages[1].StartedDateTime != "2025-03-14T09:26:53.3Z" {
		t.Errorf("page 2 = %+v", l.Pages[1])
	}
	want := []struct {
		page, method string
		status       int
		size         int64
		failure      string
	}{{"step-1", "GET", 200, 900, ""}, {"step-2", "POST", 500, 17, ""}, {"step-2", "GET", 0, 0, "net::ERR_CONNECTION_REFUSED"}}
	for i, w := range want {
		e := l.Entries[i]
		if e.PageRef != w.page || e.Request.Method != w.method || e.Response.Status != w.status || e.Response.Content.Size != w.size || e.Response.Error != w.failure {
			t.Errorf("entry %d: page %s %s status %d size %d error %q; want %+v", i, e.PageRef, e.Request.Method, e.Response.Status, e.Response.Content.Size, e.Response.Error, w)
		}
	}
	post := l.Entries[1]
	if post.StartedDateTime != "2025-03-14T09:26:53.31Z" || post.Time != 40 || post.Timings.Wait != 40 || post.ResourceType != "fetch" {
		t.Errorf("POST timing: started %s, time %d, wait %d, type %q", post.StartedDateTime, post.Time, post.Timings.Wait, post.ResourceType)
	}
	if got := post.Request.Headers[0]; got.Name != "Authorization" || got.Value != "••••••" {
		t.Errorf("POST Authorization header %+v, want it masked", got)
	}
	if q := post.Request.QueryString; len(q) != 2 || q[0] != (NameValue{"token", "••••••"}) || q[1] != (NameValue{"q", "a b"}) {
		t.Errorf("POST query string %+v, want the token masked and q decoded", q)
	}
	if p := post.Request.PostData; p == nil || p.Text != `{"room":"north"}` || post.Request.BodySize != 16 {
		t.Errorf("POST post data %+v, body size %d", p, post.Request.BodySize)
	}
	if c := post.Response.Content; c.Text != `{"error":"down"}` || c.MimeType != "application/json" || post.Response.StatusText != "Internal Server Error" {
		t.Errorf("POST response %+v", post.Response)
	}
	if lost := l.Entries[2]; lost.Response.BodySize != -1 || lost.Response.Content.MimeType != "x-unknown" {
		t.Errorf("lost GET response %+v: want body size -1 and an unknown type", lost.Response)
	}
}

func TestHAROfAnAttemptWithoutTrafficHasNoEntries(t *testing.T) {
	a := savedAttempt()
	for i := range a.Steps {
		a.Steps[i].Traffic = agent.Traffic{}
	}
	l := Build(a, Creator{Name: "Observatory", Version: "test"})
	if len(l.Entries) != 0 || len(l.Pages) != 2 {
		t.Errorf("%d entries, %d pages; want none and 2", len(l.Entries), len(l.Pages))
	}
	data, _ := json.Marshal(l)
	if !strings.Contains(string(data), `"entries":[]`) {
		t.Errorf("entries not written as an empty array: %s", data)
	}
}
