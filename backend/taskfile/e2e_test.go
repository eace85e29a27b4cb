package taskfile_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
	"observatory/backend/runner"
	"observatory/backend/taskfile"
	"observatory/internal/pgtest"
	"observatory/internal/trackertest"
)

// shared is one headless Chromium lent to every run of a test; the runs cannot close it.
type shared struct{ agent.Browser }

func (shared) Close() error { return nil }

// launcher lends every run the same headless Chromium, closed when t ends (each attempt still
// gets a fresh context and page).
func launcher(t *testing.T) runner.Launcher {
	t.Helper()
	b := browsertest.Launch(t)
	return func(context.Context) (agent.Browser, error) { return shared{b}, nil }
}

// token is the secret the create-issue task sends in a header; it must appear nowhere.
const token = "tok-7f3a9c-never-stored"

// deadOracle is create-issue's gate with a second HTTP condition on a port nothing listens
// on (%[1]s), and no ground truth of its own; %[2]s is the tracker's origin.
const deadOracle = `schema: observatory.task/v1
name: dead-oracle
intent: File an issue titled "Broken link on the pricing page".
base_url: ${TRACKER_URL}
start_url: /
origins: ['%[2]s', '%[1]s']
plan:
  - {description: Fill the issue title, action: fill, target: {label: Title}, value: Broken link on the pricing page}
  - {description: Submit the new issue, action: click, target: {role: button, name: Create issue}}
  - {description: Verify the issue is filed, action: verify}
success:
  - id: filed
    http: {url: /api/issues, expr: 'body.exists(i, i.title == "Broken link on the pricing page")'}
  - id: audit
    label: The audit service logged it
    http: {url: '%[1]s/api/audit', expr: status == 200}
config: {deadline_ms: 1000}
`

// cell is how one verdict came out: "yes", "no" or "could not confirm".
func cell(v agent.Verdict) string {
	switch {
	case v.Unconfirmed != "":
		return "could not confirm"
	case v.Done:
		return "yes"
	}
	return "no"
}

// TestTrackerTasksInChromium runs the tracker's task files in real Chromium against the
// tracker app and checks every verdict cell, the gate's conditions and the terminal state;
// then judges the recorded evidence again, with the loaded task and with the task rebuilt
// from its spec (as an import does), and finds the same verdicts.
func TestTrackerTasksInChromium(t *testing.T) {
	launch := launcher(t)
	tests := []struct {
		name, file string
		postgres   bool
		refuse     bool
		seed       []string
		truth      string
		signals    map[string]string
		conditions map[string]string
		terminal   agent.Terminal
		// heldAtStart: the gate held before the attempt acted, so it did nothing.
		heldAtStart bool
	}{
		{name: "create an issue", file: "create-issue.yaml", truth: "yes",
			signals:    map[string]string{"notice": "yes", "parallax": "yes"},
			conditions: map[string]string{"filed": "yes", "listed": "yes"}, terminal: agent.Completed},
		{name: "close an issue", file: "close-issue.yaml", seed: []string{"Typo in the footer", "Slow search"}, truth: "yes",
			signals:    map[string]string{"notice": "yes", "parallax": "no"},
			conditions: map[string]string{"closed": "yes"}, terminal: agent.Completed},
		{name: "close an issue in PostgreSQL", file: "close-issue-postgres.yaml", postgres: true, seed: []string{"Typo in the footer"}, truth: "yes",
			signals:    map[string]string{"notice": "yes", "parallax": "no"},
			conditions: map[string]string{"closed": "yes"}, terminal: agent.Completed},
		{name: "the write is refused", file: "create-issue.yaml", refuse: true, truth: "no",
			signals:    map[string]string{"notice": "yes", "parallax": "yes"},
			conditions: map[string]string{"filed": "no", "listed": "no"}, terminal: agent.Failed},
		{name: "the issue was filed before", file: "create-issue.yaml", seed: []string{"Broken link on the pricing page"}, truth: "yes",
			signals:    map[string]string{"notice": "no", "parallax": "no"},
			conditions: map[string]string{"filed": "yes", "listed": "yes"}, terminal: agent.Ambiguous, heldAtStart: true},
		// The gate stands in for the ground truth, so the truth is as unknown as the gate.
		{name: "an oracle cannot answer", file: "dead-oracle.yaml", truth: "could not confirm",
			signals:    map[string]string{},
			conditions: map[string]string{"filed": "yes", "audit": "could not confirm"}, terminal: agent.Failed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"TRACKER_TOKEN": token}
			opts := trackertest.Options{RefuseWrites: tt.refuse, Seed: tt.seed}
			if tt.postgres {
				opts.DSN = pgtest.Start(t)
				env["TRACKER_DSN"] = opts.DSN
			} else {
				opts.SQLite = filepath.Join(t.TempDir(), "tracker.db")
				env["TRACKER_DB"] = opts.SQLite
			}
			tracker, err := trackertest.Start(opts)
			if err != nil {
				t.Fatal(err)
			}
			defer tracker.Close()
			env["TRACKER_URL"] = strings.TrimSuffix(tracker.URL, "/")
			path := filepath.Join("testdata/tracker", tt.file)
			if tt.file == "dead-oracle.yaml" {
				path = filepath.Join(t.TempDir(), tt.file)
				if err := os.WriteFile(path, fmt.Appendf(nil, deadOracle, closedOrigin(t), env["TRACKER_URL"]), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			trust := taskfile.Trust{Env: slices.Collect(maps.Keys(env))} // the user allows what they set
			if opts.SQLite != "" {
				trust.Paths = []string{filepath.Dir(opts.SQLite)}
			}
			suite, err := taskfile.Load(path, taskfile.Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }, Trust: trust})
			if err != nil {
				t.Fatal(err)
			}
			r := &runner.Runner{Suite: suite, Spec: suite.Spec(), Planner: suite.Planner, Launch: launch}
			start := time.Now()
			run, err := r.Run(context.Background(), "tracker", runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("ran in %v", time.Since(start).Round(time.Millisecond))
			if len(run.Attempts) != 1 {
				t.Fatalf("%d attempts", len(run.Attempts))
			}
			a := run.Attempts[0]
			v := a.Verdicts
			if cell(v.Truth.Verdict) != tt.truth {
				t.Errorf("truth %s (%s), want %s", cell(v.Truth.Verdict), v.Truth.Evidence, tt.truth)
			}
			signals := map[string]string{}
			for _, s := range v.Signals {
				signals[s.ID] = cell(s.Verdict)
			}
			conditions := map[string]string{}
			for _, c := range v.Gate.Conditions {
				conditions[c.ID] = cell(c.Verdict)
			}
			if !reflect.DeepEqual(signals, tt.signals) || !reflect.DeepEqual(conditions, tt.conditions) {
				t.Errorf("signals %v, conditions %v; want %v, %v\n%+v", signals, conditions, tt.signals, tt.conditions, v)
			}
			if gate := tt.terminal == agent.Completed || tt.heldAtStart; v.Gate.Done != gate || a.Terminal != tt.terminal {
				t.Errorf("gate %v, terminal %s (%s); want gate %v, %s", v.Gate.Done, a.Terminal, a.Reason, gate, tt.terminal)
			}
			for _, ans := range a.Answers {
				if (len(ans.Raw) == 0) == (ans.Error == "") {
					t.Errorf("answer %s has raw %q and error %q; want exactly one", ans.Condition, ans.Raw, ans.Error)
				}
			}
			rejudge(t, suite, a)
			if b, _ := json.Marshal(run); strings.Contains(string(b), token) || strings.Contains(string(suite.Spec()), token) {
				t.Error("the header's secret is in the run or the spec")
			}
			if tt.refuse {
				if issues, err := tracker.Issues(context.Background()); err != nil || len(issues) != 0 {
					t.Errorf("the refused write stored %v (%v)", issues, err)
				}
			}
			if tt.heldAtStart {
				issues, err := tracker.Issues(context.Background())
				if err != nil || len(issues) != 1 || len(a.Steps) != 0 || !strings.Contains(a.Reason, "held before the attempt acted") {
					t.Errorf("with the gate holding at the start: issues %v (%v), %d steps, reason %q; want nothing done, saying why", issues, err, len(a.Steps), a.Reason)
				}
			}
		})
	}
}

// rejudge judges an attempt's recorded evidence again, with suite and with the suite
// rebuilt from its spec, and compares with the verdicts recorded live.
func rejudge(t *testing.T, suite taskfile.Suite, a agent.Attempt) {
	t.Helper()
	rebuilt, err := taskfile.FromSpec(suite.Spec(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]taskfile.Suite{"loaded": suite, "from its spec": rebuilt} {
		v, err := s.Judge(a.Evidence())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(v, a.Verdicts) {
			t.Errorf("%s: judging the recorded evidence gives\n%+v\nlive\n%+v", name, v, a.Verdicts)
		}
	}
}

// closedOrigin is the origin of a port nothing listens on.
func closedOrigin(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return "http://" + ln.Addr().String()
}
