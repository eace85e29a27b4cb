package browser

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/harness"
	"observatory/backend/planner"
)

// publishPage is an editor that publishes in two stages, as WordPress does: Publish opens a
// panel, whose own Publish commits (a POST) and whose Cancel closes it.
const publishPage = `<!doctype html><title>Edit post</title>
<button id="toggle" aria-expanded="false" onclick="panel.hidden = !panel.hidden; this.setAttribute('aria-expanded', String(!panel.hidden))">Publish</button>
<section id="panel" role="region" aria-label="Ready to publish?" hidden>
  <button onclick="fetch('/api/publish', {method: 'POST'}).then(() => { notice.textContent = 'Post published.'; panel.hidden = true; })">Publish</button>
  <button onclick="panel.hidden = true; toggle.setAttribute('aria-expanded', 'false')">Cancel</button>
</section>
<p id="notice" role="status"></p>`

// TestATwoStagePublishIsNotHeldAsARepeat publishes through the panel after opening it,
// cancelling it and opening it again: the toggle's second click, and the confirm, run,
// as neither opening committed anything. Publishing again once the POST was answered is
// held as a repeat, saying what showed the first one succeeded: also when the answer's body
// ends well after the page showed it was published, which the steps between did not wait for.
func TestATwoStagePublishIsNotHeldAsARepeat(t *testing.T) {
	t.Parallel()
	for name, late := range map[string]time.Duration{"answered at once": 0, "the answer's body ending late": 300 * time.Millisecond} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			publishesOnce(t, late)
		})
	}
}

// publishesOnce runs the two-stage publish against a server whose answer to the POST ends
// late after its headers.
func publishesOnce(t *testing.T, late time.Duration) {
	var published atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(publishPage))
	})
	mux.HandleFunc("POST /api/publish", func(w http.ResponseWriter, r *http.Request) {
		published.Add(1)
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		time.Sleep(late) // a slow server's body
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	ctx := context.Background()
	page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	toggle := agent.Target{Role: "button", Name: "Publish"} // one while the panel is closed
	confirm := agent.Target{Role: "button", Name: "Publish", Within: agent.Container{Role: "region", Name: "Ready to publish?"}}
	plan := agent.Plan{
		{ID: "open", Description: "Publish", Kind: agent.ActClick, Target: toggle},
		{ID: "cancel", Description: "Cancel", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Cancel"}},
		{ID: "reopen", Description: "Publish", Kind: agent.ActClick, Target: toggle},
		{ID: "confirm", Description: "Publish the post", Kind: agent.ActClick, Target: confirm},
		{ID: "wait", Description: "Wait until published", Kind: agent.ActWaitFor, Target: agent.Target{Text: "Post published."}},
		{ID: "reopen-again", Description: "Publish", Kind: agent.ActClick, Target: toggle},
		{ID: "confirm-again", Description: "Publish the post", Kind: agent.ActClick, Target: confirm},
	}
	x := &agent.Executor{Policy: harness.Policy{}}
	cfg := agent.DefaultConfig()
	cfg.Budget = 12
	out := x.Run(ctx, page, agent.Job{Env: staticEnv{srv.URL}, Planner: planner.Scripted(plan), Config: cfg}, agent.Hooks{})
	if len(out.Steps) != len(plan) {
		for _, s := range out.Steps {
			t.Logf("%s: %s %q %s", s.Action.Description, s.Decision.Admission, s.Error, s.Decision.Reason)
		}
		t.Fatalf("%d steps ran, want %d: %s: %s", len(out.Steps), len(plan), out.Terminal, out.Reason)
	}
	for i, s := range out.Steps[:6] {
		if s.Decision.Admission != agent.Allow || s.Error != "" {
			t.Errorf("step %d (%s): %s, error %q: %s", i+1, s.Action.Description, s.Decision.Admission, s.Error, s.Decision.Reason)
		}
	}
	last := out.Steps[6].Decision
	if last.Admission != agent.Hold || !last.Continue || !strings.Contains(last.Reason, "already succeeded on this page at step 4 (POST "+srv.URL+"/api/publish answered 200)") {
		t.Errorf("publishing again: %s: %s; want held as a repeat of step 4, naming its POST", last.Admission, last.Reason)
	}
	if n := published.Load(); n != 1 {
		t.Errorf("published %d times, want once", n)
	}
}
