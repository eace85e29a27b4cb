package taskfile_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/runner"
	"observatory/backend/taskfile"
)

// slowEditor is a page that builds itself late, as a script-heavy editor does: a cookie
// banner shows after 400 ms, the Add and Add later buttons after 800 ms, and "Ready" after
// 1500 ms. Add posts the form, which the app stores at once; Add later is stored 700 ms after
// the app answers, as a queued job is. /api/state says whether it was stored.
func slowEditor(t *testing.T) *httptest.Server {
	var added atomic.Bool
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = fmt.Fprint(w, `<!doctype html><title>Editor</title><h1>Editor</h1><div id="slot"></div>
<script>
const add = (html, ms) => setTimeout(() => slot.insertAdjacentHTML("beforeend", html), ms);
add('<div role="dialog" aria-label="Cookies"><button onclick="this.parentElement.remove()">Accept cookies</button></div>', 400);
add('<form method="post" action="/add"><button>Add</button><button formaction="/add?later">Add later</button></form>', 800);
add('<p>Ready</p>', 1500);
</script>`)
	})
	mux.HandleFunc("POST /add", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("later") {
			time.AfterFunc(700*time.Millisecond, func() { added.Store(true) })
		} else {
			added.Store(true)
		}
		http.Redirect(w, r, "/", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /api/state", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprintf(w, `{"added": %v}`, added.Load())
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// slowTask is a task on slowEditor (at %[1]s) whose plan is %[2]s.
const slowTask = `schema: observatory.task/v1
name: slow-editor
intent: Add an entry.
base_url: %[1]s
start_url: /
plan:
%[2]s
success:
  - {id: added, http: {url: /api/state, expr: body.added == true}}
config: {deadline_ms: 1000}
`

// addLater is a plan that waits for the Add later button and presses it.
const addLater = `  - {description: Add the entry later, action: click, target: {role: button, name: Add later}, timeout_ms: 4000}`

// TestStepsWaitForALatePageInChromium runs plans on a page that builds itself late: steps
// with timeout_ms wait for their targets (an optional banner is clicked, not skipped, and the
// late Add button pressed) and the task is done; without one, Add is not there yet and the
// attempt fails at once; a wait_for with a timeout shorter than the page's delay gives up
// after it, saying so. A wait_for a condition waits for the app's queued job to store the
// entry, and the task is done; without it the plan ends before the job, and with too short a
// timeout the wait gives up saying what the condition last answered.
func TestStepsWaitForALatePageInChromium(t *testing.T) {
	launch := launcher(t)
	tests := []struct {
		name, plan string
		terminal   agent.Terminal
		reason     string
	}{
		{"with timeouts", `  - {description: Accept the cookies, action: click, target: {role: button, name: Accept cookies}, optional: true, timeout_ms: 4000}
  - {description: Add the entry, action: click, target: {role: button, name: Add}, timeout_ms: 4000}`, agent.Completed, "every completion condition holds"},
		{"without", `  - {description: Add the entry, action: click, target: {role: button, name: Add}}`, agent.Failed, "no element matches"},
		{"a wait_for too short", `  - {description: Wait until ready, action: wait_for, target: {text: Ready}, timeout_ms: 300}`, agent.Failed, `waited 300 ms for text "Ready" to be shown`},
		{"a wait for the condition", addLater + `
  - {description: Wait until it is stored, action: wait_for, condition: added, timeout_ms: 3000}`, agent.Completed, "the plan ended and every completion condition holds"},
		{"no wait for the condition", addLater, agent.Failed, "the plan ended without the completion gate holding"},
		{"a wait for the condition too short", addLater + `
  - {description: Wait until it is stored, action: wait_for, condition: added, timeout_ms: 200}`, agent.Failed, "waited 200 ms for added to hold; it last said: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := slowEditor(t)
			path := filepath.Join(t.TempDir(), "slow.yaml")
			if err := os.WriteFile(path, fmt.Appendf(nil, slowTask, srv.URL, tt.plan), 0o644); err != nil {
				t.Fatal(err)
			}
			suite, err := taskfile.Load(path, taskfile.Options{})
			if err != nil {
				t.Fatal(err)
			}
			r := &runner.Runner{Suite: suite, Spec: suite.Spec(), Planner: suite.Planner, Launch: launch}
			run, err := r.Run(context.Background(), "slow", runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			a := run.Attempts[0]
			if a.Terminal != tt.terminal || !strings.Contains(a.Reason, tt.reason) {
				t.Errorf("%s (%s), want %s with %q", a.Terminal, a.Reason, tt.terminal, tt.reason)
			}
			for _, s := range a.Steps {
				if s.Skipped() {
					t.Errorf("step %q was skipped", s.Action.Description)
				}
			}
		})
	}
}
