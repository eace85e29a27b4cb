package browser

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/harness"
	"observatory/backend/planner"
)

// slowHeadServer serves a login page whose button lands on a dashboard with a head script
// that takes delay to arrive: until then the dashboard's document has no body.
func slowHeadServer(tb testing.TB, delay time.Duration) string {
	tb.Helper()
	mux := http.NewServeMux()
	html := func(w http.ResponseWriter, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(body))
	}
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		html(w, `<!doctype html><title>Log in</title><form action="/dashboard"><button>Log in</button></form>`)
	})
	mux.HandleFunc("GET /dashboard", func(w http.ResponseWriter, r *http.Request) {
		html(w, `<!doctype html><html><head><title>Dashboard</title><script src="/app.js"></script></head>`+
			`<body><h1>Dashboard</h1><button onclick="this.textContent='Opened'">Open report</button></body></html>`)
	})
	mux.HandleFunc("GET /app.js", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
		}
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = w.Write([]byte("window.ready = true;"))
	})
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	return srv.URL
}

// TestObservingAPageStillLoadingWaitsForIt logs in on a page whose next page's head script
// takes 1.5 s: the observation after the click finds a document with no body yet, which is a
// page still loading, not a failure. Every step runs and observes the dashboard.
func TestObservingAPageStillLoadingWaitsForIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	plan := agent.Plan{
		{ID: "login", Description: "Log in", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Log in"}},
		{ID: "open", Description: "Open the report", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Open report"}},
	}
	x := &agent.Executor{Policy: harness.Policy{}}
	out := x.Run(ctx, page, agent.Job{Env: staticEnv{slowHeadServer(t, 1500*time.Millisecond)}, Planner: planner.Scripted(plan),
		Config: agent.DefaultConfig()}, agent.Hooks{})
	if len(out.Steps) != len(plan) || strings.Contains(out.Reason, "observe") {
		t.Fatalf("%d steps ran, want %d: %s: %s", len(out.Steps), len(plan), out.Terminal, out.Reason)
	}
	for _, s := range out.Steps {
		if s.Error != "" {
			t.Errorf("%s: %s", s.Action.Description, s.Error)
		}
	}
	if after := out.Steps[0].After; after.Title != "Dashboard" || !strings.Contains(after.Text, "Open report") {
		t.Errorf("after logging in the page was observed as %q: %q", after.Title, after.Text)
	}
}
