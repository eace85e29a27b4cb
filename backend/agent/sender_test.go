package agent

import "testing"

// A request is filed under the own step that sent it, whenever its answer came; observed
// steps and full steps are left as they were.
func TestFileBySender(t *testing.T) {
	req := func(url string, start int64) Request { return Request{Method: "GET", URL: url, StartMS: start} }
	steps := []Step{
		{Index: 0, StartMS: 0, DurationMS: 100, Traffic: Traffic{Requests: []Request{req("/load", 10)}}},
		{Index: 1, StartMS: 150, DurationMS: 100, Traffic: Traffic{Requests: []Request{req("/planned-gap", 120)}}},
		// The save sent at 240 ms during step 2, answered once step 3 had begun.
		{Index: 2, StartMS: 300, DurationMS: 100, Traffic: Traffic{Requests: []Request{req("/save", 240), req("/own", 320)}}},
		{Index: 3, StartMS: 400, DurationMS: 50, Provenance: Observed, Traffic: Traffic{Requests: []Request{req("/observed", 20)}}},
	}
	fileBySender(steps)
	want := [][]string{{"/load"}, {"/planned-gap", "/save"}, {"/own"}, {"/observed"}}
	for i, s := range steps {
		var got []string
		for _, r := range s.Requests {
			got = append(got, r.URL)
		}
		if len(got) != len(want[i]) {
			t.Fatalf("step %d holds %v, want %v", i+1, got, want[i])
		}
		for j := range got {
			if got[j] != want[i][j] {
				t.Fatalf("step %d holds %v, want %v", i+1, got, want[i])
			}
		}
	}

	full := make([]Request, MaxStepRequests)
	steps = []Step{
		{StartMS: 0, DurationMS: 100, Traffic: Traffic{Requests: full}},
		{StartMS: 100, DurationMS: 100, Traffic: Traffic{Requests: []Request{req("/late", 50)}}},
	}
	fileBySender(steps)
	if len(steps[0].Requests) != MaxStepRequests || len(steps[1].Requests) != 1 {
		t.Fatalf("a full step took a request: %d and %d", len(steps[0].Requests), len(steps[1].Requests))
	}
}
