package app

import (
	"testing"
	"time"

	"observatory/backend/agent"
)

// TestRequestsListsEveryStepsRequestsWithItsStep: the whole attempt's network table holds
// each step's requests in order, each with its step's position, and adds up what the steps'
// limits dropped.
func TestRequestsListsEveryStepsRequestsWithItsStep(t *testing.T) {
	s, _, st := newServices(t, nil)
	n := 0
	step := func(tr agent.Traffic) agent.Step { n++; return agent.Step{Index: n - 1, Traffic: tr} }
	run := agent.Run{ID: "run1", Task: "booking", Created: time.Now().UTC(), Status: agent.RunImported, Source: "x.json",
		Attempts: []agent.Attempt{{Slug: "saves", Terminal: agent.Completed, Config: agent.DefaultConfig(), Steps: []agent.Step{
			step(agent.Traffic{Requests: []agent.Request{{Method: "GET", URL: "http://lab/", ResourceType: "document", Status: 200, Size: 812}}}),
			step(agent.Traffic{}),
			step(agent.Traffic{
				Requests: []agent.Request{{Method: "POST", URL: "http://lab/api/save", ResourceType: "fetch", Status: 409, Size: -1}, {Method: "GET", URL: "http://lab/a.css", ResourceType: "stylesheet", Failure: "net::ERR_ABORTED"}},
				Dropped:  agent.Dropped{Requests: 3},
			}),
		}}}}
	if err := st.SaveImported(run); err != nil {
		t.Fatal(err)
	}
	got, err := s.History.Requests(run.ID, "saves")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Requests) != 3 || got.Dropped != 3 {
		t.Fatalf("got %+v, want 3 requests and 3 dropped", got)
	}
	for i, want := range []struct {
		step int
		url  string
	}{{0, "http://lab/"}, {2, "http://lab/api/save"}, {2, "http://lab/a.css"}} {
		if r := got.Requests[i]; r.Step != want.step || r.URL != want.url {
			t.Errorf("request %d is step %d %s, want step %d %s", i, r.Step, r.URL, want.step, want.url)
		}
	}
	if _, err := s.History.Requests(run.ID, "nope"); err == nil {
		t.Error("an unknown attempt listed requests")
	}
}
