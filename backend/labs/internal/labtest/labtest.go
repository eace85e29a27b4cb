// Package labtest is what the labs' end-to-end tests share: running every attempt of a lab
// in headless Chromium with the harness off (the naive column) and on, and checking the
// runs against the lab's table.
package labtest

import (
	"context"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/browser"
	"observatory/backend/browser/browsertest"
	"observatory/backend/harness"
	"observatory/backend/runner"
)

// Lab is what Both needs of a lab: its suite, who approves an attempt's irreversible actions
// (nil when nobody does), how many rows its table has, and its table check.
type Lab struct {
	Suite    agent.Suite
	Approver func(spec agent.AttemptSpec) agent.Approver
	Rows     int
	Check    func(naive, harnessed []agent.Attempt) error
}

// Run runs every attempt of the lab in headless Chromium under policy, as run id, and fails
// the test unless the run finishes with one attempt per row of the lab's table.
func Run(t *testing.T, lab Lab, id string, policy agent.Policy) agent.Run {
	t.Helper()
	r := &runner.Runner{Suite: lab.Suite, Policy: policy, Approver: lab.Approver,
		Launch: func(ctx context.Context) (agent.Browser, error) {
			b, err := browser.Launch(ctx, browser.Options{Headless: true})
			if err != nil {
				return nil, err
			}
			return b, nil
		}}
	run, err := r.Run(context.Background(), id, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != agent.RunFinished || len(run.Attempts) != lab.Rows {
		t.Fatalf("run %s with %d attempts, want finished with %d", run.Status, len(run.Attempts), lab.Rows)
	}
	return run
}

// Both skips the test unless Chromium is available, then runs every attempt of the lab
// twice, with the harness off (run "naive") and on (run "harnessed"), reports any difference
// from the lab's table as a test error, and returns both runs for the lab's own checks.
func Both(t *testing.T, lab Lab) (naive, harnessed agent.Run) {
	t.Helper()
	browsertest.Ready(t)
	start := time.Now()
	naive = Run(t, lab, "naive", harness.Off{})
	harnessed = Run(t, lab, "harnessed", harness.Policy{})
	t.Logf("%d attempts in %s", len(naive.Attempts)+len(harnessed.Attempts), time.Since(start).Round(100*time.Millisecond))
	if err := lab.Check(naive.Attempts, harnessed.Attempts); err != nil {
		t.Error(err)
	}
	return naive, harnessed
}
