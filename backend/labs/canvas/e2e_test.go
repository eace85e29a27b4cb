package canvas_test

import (
	"context"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/browser"
	"observatory/backend/browser/browsertest"
	"observatory/backend/harness"
	"observatory/backend/labs/canvas"
	"observatory/backend/runner"
)

// runAll runs every attempt of the canvas lab in headless Chromium under policy.
func runAll(t *testing.T, id string, policy agent.Policy) agent.Run {
	t.Helper()
	r := &runner.Runner{Suite: canvas.New(), Policy: policy,
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
	if run.Status != agent.RunFinished || len(run.Attempts) != len(canvas.Table) {
		t.Fatalf("run %s with %d attempts, want finished with %d", run.Status, len(run.Attempts), len(canvas.Table))
	}
	return run
}

// TestCanvasTableInChromium runs every attempt twice in real Chromium against the real board,
// with the harness off (the naive column) and on, and checks every cell of the table. It also
// checks how each row came about: the blind click landed on an empty square, the first
// harnessed step named the canvas and the text routes and later steps only reminded, and the
// naive steps said nothing.
func TestCanvasTableInChromium(t *testing.T) {
	browsertest.Ready(t)
	naive := runAll(t, "naive", harness.Off{})
	harnessed := runAll(t, "harnessed", harness.Policy{})
	if err := canvas.CheckTable(naive.Attempts, harnessed.Attempts); err != nil {
		t.Error(err)
	}
	for i, a := range harnessed.Attempts {
		n := naive.Attempts[i]
		t.Logf("%s: naive %s (%s), harnessed %s (%s)", a.Slug, n.Terminal, n.Reason, a.Terminal, a.Reason)
		for _, s := range n.Steps {
			if s.Guidance != "" {
				t.Errorf("%s: naive step %d has guidance %q; the naive column has no harness", n.Slug, s.Index+1, s.Guidance)
			}
		}
		first := a.Steps[0]
		if !strings.Contains(first.Guidance, "canvas#board") || !strings.Contains(first.Guidance, "accessible or text mode") {
			t.Errorf("%s: first step's guidance %q, want the board flagged and a text route suggested", a.Slug, first.Guidance)
		}
		for _, s := range a.Steps[1:] {
			if !strings.HasPrefix(s.Guidance, "reminder: canvas#board") {
				t.Errorf("%s: step %d guidance %q, want a one-line reminder", a.Slug, s.Index+1, s.Guidance)
			}
		}
		if a.Slug == "clicks-the-board" {
			s, err := canvas.Rebuild(a.Events)
			if err != nil || len(s.Clicks) != 1 || s.Pieces[s.Clicks[0]] != "" {
				t.Errorf("the blind click: clicks %v (%v), want one click on an empty square", s.Clicks, err)
			}
		}
	}
}
