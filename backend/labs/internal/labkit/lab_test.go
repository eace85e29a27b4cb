package labkit

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"observatory/backend/agent"
)

// demo is a lab for the tests: its state counts events, its gate holds after two, and its
// page shows the count.
func demo(latency func(string) int) Lab[int, *App[int]] {
	rules := Rules[int]{Lab: "demo", Faults: []string{"none", "slow"}, Initial: func() int { return 0 }, Apply: count,
		Gate: func(n int) agent.Gate {
			return agent.NewGate([]agent.Condition{{ID: "two", Label: "Two events", Verdict: agent.Verdict{Done: n >= 2}}})
		},
		Settle: func(int, agent.Gate) (agent.Terminal, string) { return "", "" }}
	site := NewSite(fstest.MapFS{
		"page.html":      {Data: []byte(`{{define "title"}}Demo{{end}}{{define "body"}}<p>{{.}} events</p>{{end}}`)},
		"assets/app.js":  {Data: []byte(`'use strict';`)},
		"assets/app.css": {Data: []byte(`p {}`)},
	})
	return New(Spec[int, *App[int]]{Rules: rules, Latency: latency,
		Start: func(host, fault string, latencyMS int) (*App[int], error) {
			return Launch(rules, host, fault, latencyMS, func(a *App[int]) *App[int] { return a },
				func(a *App[int]) http.Handler {
					return a.Routes(site, func(http.ResponseWriter) any { return a.State() }, map[string]bool{"tick": true})
				})
		}})
}

// TestLaunch takes the normal fault and the latency's default, and refuses an unknown fault,
// a negative latency, and a parameter the lab does not take, each by name.
func TestLaunch(t *testing.T) {
	for _, tc := range []struct {
		latency       func(string) int
		fault         string
		params        map[string]int
		wantFault, in string
	}{
		{nil, "", nil, "none", ""},
		{func(string) int { return 5 }, "slow", map[string]int{ParamLatency: 1}, "slow", ""},
		{nil, "haunted", nil, "", `unknown demo fault "haunted": use one of none, slow`},
		{func(string) int { return 5 }, "", map[string]int{ParamLatency: -1}, "", "demo lab latency -1 ms: want 0 or more"},
		{nil, "", map[string]int{ParamLatency: 1}, "", `demo lab has no parameter "latency_ms"; it has none`},
	} {
		in, err := demo(tc.latency).Launch(tc.fault, tc.params)
		if tc.in != "" {
			if err == nil || err.Error() != tc.in {
				t.Errorf("Launch(%q, %v) = %v, want %s", tc.fault, tc.params, err, tc.in)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if in.Fault() != tc.wantFault {
			t.Errorf("Launch(%q) plays %q, want %q", tc.fault, in.Fault(), tc.wantFault)
		}
		_ = in.Close()
	}
}

// TestSite serves the page in the shared layout with the lab's assets and lab.js, the state,
// and the page's events, which move the gate checked live.
func TestSite(t *testing.T) {
	env, err := demo(nil).Start(t.Context(), agent.AttemptSpec{})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	get := func(path string) string {
		t.Helper()
		res, err := http.Get(env.StartURL() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET /%s: %s", path, res.Status)
		}
		return string(b)
	}
	page := get("")
	for _, want := range []string{"<title>Demo</title>", `<script src="/labkit/lab.js" defer></script>`,
		`<script src="/assets/app.js" defer></script>`, "<p>0 events</p>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s:\n%s", want, page)
		}
	}
	if js := get("labkit/lab.js"); !strings.Contains(js, "const lab =") {
		t.Errorf("lab.js is %q", js)
	}
	for range 2 {
		res, err := http.Post(env.StartURL()+"api/events", "application/json", strings.NewReader(`{"type":"tick"}`))
		if err != nil || res.StatusCode != http.StatusNoContent {
			t.Fatalf("post an event: %v %v", res, err)
		}
		res.Body.Close()
	}
	if got := get("api/state"); strings.TrimSpace(got) != "2" {
		t.Errorf("state %q, want 2", got)
	}
	if c := env.Check(t.Context(), nil); !c.Gate.Done {
		t.Errorf("gate after two events: %+v", c.Gate)
	}
}
