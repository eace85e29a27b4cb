package browser

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/harness"
	"observatory/backend/planner"
)

// TestWaitForWaitsAndSaysWhatItSaw saves on a page that says so 1.5 s later: wait_for waits
// for the text, then for a Publish button that never comes, and gives up saying what the
// page had instead.
func TestWaitForWaitsAndSaysWhatItSaw(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><title>Draft</title><button onclick="setTimeout(() => {
			document.body.insertAdjacentHTML('beforeend', '<p>Saved</p><button>Preview</button>');
		}, 1500)">Save</button>`))
	}))
	t.Cleanup(srv.Close)
	ctx := context.Background()
	page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	plan := agent.Plan{
		{ID: "save", Description: "Save", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Save"}},
		{ID: "saved", Description: "Wait until saved", Kind: agent.ActWaitFor, Target: agent.Target{Text: "Saved"}},
		{ID: "publish", Description: "Wait for Publish", Kind: agent.ActWaitFor, Target: agent.Target{Role: "button", Name: "Preview post"}},
	}
	x := &agent.Executor{Policy: harness.Policy{}}
	out := x.Run(ctx, page, agent.Job{Env: staticEnv{srv.URL}, Planner: planner.Scripted(plan), Config: agent.DefaultConfig()}, agent.Hooks{})
	if len(out.Steps) != 3 {
		t.Fatalf("%d steps ran, want 3: %s: %s", len(out.Steps), out.Terminal, out.Reason)
	}
	if s := out.Steps[1]; s.Error != "" || s.TargetBox == nil || !strings.Contains(s.After.Text, "Saved") {
		t.Errorf("waiting for Saved: error %q, box %v, page %q", s.Error, s.TargetBox, s.After.Text)
	}
	s := out.Steps[2]
	if !strings.Contains(s.Error, "waited 5000 ms for button[Preview post] to be shown") || !strings.Contains(s.Error, `button "Preview"`) ||
		len(s.Candidates) == 0 || s.Candidates[0].Name != "Preview" {
		t.Errorf("waiting in vain: error %q, candidates %+v", s.Error, s.Candidates)
	}
}
