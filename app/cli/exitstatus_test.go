package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"observatory/backend/browser/browsertest"
)

// coinSite is a site whose "Go" button works on odd page loads only: a task on it with
// trials is flaky by construction (trial 1 completes, trial 2 fails, trial 3 completes, as
// long as they run one at a time), and a task on its steady page always completes.
type coinSite struct {
	*httptest.Server
	mu     sync.Mutex
	loads  int
	pushed bool
}

func newCoinSite(t *testing.T) *coinSite {
	s := &coinSite{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.loads++
		s.pushed = false
		s.mu.Unlock()
		fmt.Fprint(w, `<!doctype html><html><body><button onclick="fetch('/go').then(() => document.body.append('Done'))">Go</button></body></html>`)
	})
	mux.HandleFunc("GET /go", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.pushed = true
		s.mu.Unlock()
		fmt.Fprint(w, "{}")
	})
	mux.HandleFunc("GET /api/{which}", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		ok := s.pushed && (r.PathValue("which") == "steady" || s.loads%2 == 1)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]bool{"ok": ok})
	})
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// reset starts the page loads again from none, so that the next run's first trial completes.
func (s *coinSite) reset() {
	s.mu.Lock()
	s.loads = 0
	s.mu.Unlock()
}

// task writes a task file named name on the site whose gate reads /api/which.
func (s *coinSite) task(t *testing.T, dir, name, which string) string {
	path := filepath.Join(dir, name+".yaml")
	doc := fmt.Sprintf(`schema: observatory.task/v1
name: %s
intent: Press Go.
base_url: %s
start_url: /
plan:
  - description: Press Go
    action: click
    target: {role: button, name: Go}
  - description: Check the state
    action: verify
success:
  - id: ok
    label: the site says ok
    http:
      url: /api/%s
      expr: status == 200 && body.ok
config:
  deadline_ms: 400
`, name, s.URL, which)
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestExitStatusTable runs the exit status table of docs/ci.md end to end, in real Chromium
// against a site that is flaky on purpose: 0 when every attempt completed; 2 when one did
// not; --min-rate passing a flaky attempt whose Wilson lower bound (2 of 3: 21%) clears it and
// failing one that does not; --fail-on flaky failing it again; 3 when no attempt matched
// (a shard past the last attempt); 1 when the run cannot be made; and --shard-exit written
// exiting 0 once the shard's file is written, whatever its verdicts.
func TestExitStatusTable(t *testing.T) {
	browsertest.Ready(t)
	site := newCoinSite(t)
	dir := t.TempDir()
	coin, steady := site.task(t, dir, "coin", "coin"), site.task(t, dir, "steady", "steady")
	data := filepath.Join(dir, "data")
	common := []string{"--no-video", "--no-screenshots", "--data-dir", data}
	for _, tc := range []struct {
		name  string
		args  []string
		want  int
		check func(t *testing.T, junit string, errOut string)
	}{
		{name: "every attempt completed", args: []string{steady}, want: 0},
		{name: "a trial did not complete", args: []string{coin, "--repeat", "3"}, want: statusIncomplete,
			check: func(t *testing.T, junit, errOut string) {
				if !strings.Contains(junit, `<property name="flaky" value="true">`) || !strings.Contains(junit, `<failure type="failed"`) {
					t.Errorf("JUnit of the flaky attempt: want it flaky and failed:\n%s", junit)
				}
			}},
		{name: "--min-rate cleared", args: []string{coin, "--repeat", "3", "--min-rate", "0.2"}, want: 0,
			check: func(t *testing.T, junit, errOut string) {
				if strings.Contains(junit, "<failure") || strings.Count(junit, "<flakyFailure") != 1 {
					t.Errorf("JUnit under --min-rate 0.2: want passed with one flakyFailure:\n%s", junit)
				}
			}},
		{name: "--min-rate not cleared", args: []string{coin, "--repeat", "3", "--min-rate", "0.5"}, want: statusIncomplete,
			check: func(t *testing.T, _, errOut string) {
				if !strings.Contains(errOut, "1 of 1 attempts fail the gate (coin)") {
					t.Errorf("stderr %s: want the attempt named as failing the gate", errOut)
				}
			}},
		{name: "--fail-on flaky", args: []string{coin, "--repeat", "3", "--min-rate", "0.2", "--fail-on", "flaky"}, want: statusIncomplete},
		{name: "no attempt matched", args: []string{steady, "--shard", "2/2"}, want: statusNothingSelected},
		{name: "the run cannot be made", args: []string{filepath.Join(dir, "missing.yaml")}, want: 1},
		{name: "a bad --report", args: []string{steady, "--report", "xml"}, want: 1},
		{name: "--shard-exit written", args: []string{coin, "--repeat", "3", "--shard", "1/1", "--shard-exit", "written", "--export", filepath.Join(dir, "shard.json")}, want: 0,
			check: func(t *testing.T, _, errOut string) {
				if !strings.Contains(errOut, "the merge owns the exit status") {
					t.Errorf("stderr %s: want it to say the merge owns the verdict", errOut)
				}
				f, err := readRunFile(filepath.Join(dir, "shard.json"))
				if err != nil || f.Shard == nil || f.Shard.Index != 0 || f.Shard.Total != 1 || f.Shard.Version == "" {
					t.Errorf("the shard file: %v, shard %+v: want index 0 of 1 and a version", err, f.Shard)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site.reset()
			junit := filepath.Join(dir, "junit.xml")
			os.Remove(junit)
			args := append(append([]string{"run"}, tc.args...), common...)
			if tc.want != 1 {
				args = append(args, "--report", "junit="+junit)
			}
			code, out, errOut := run(t, args...)
			if code != tc.want {
				t.Fatalf("run %v: exit %d, want %d\n%s%s", tc.args, code, tc.want, out, errOut)
			}
			if tc.check != nil {
				b, _ := os.ReadFile(junit)
				tc.check(t, string(b), errOut)
			}
		})
	}
}
