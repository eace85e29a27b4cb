package runner_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/browser"
	"observatory/backend/labs/booking"
	"observatory/backend/runner"
)

// launcher starts headless Debian Chromium, skipping the test only when no browser or driver
// is installed (scripts/setup.sh installs both).
func launcher(t *testing.T) runner.Launcher {
	t.Helper()
	if err := browser.Install(context.Background()); err != nil {
		t.Skipf("no Playwright driver: %v", err)
	}
	return func(ctx context.Context) (agent.Browser, error) {
		b, err := browser.Launch(ctx, browser.Options{Headless: true})
		if err != nil {
			t.Skipf("no browser: %v", err)
		}
		return b, nil
	}
}

// recorder keeps what the runner records, in order.
type recorder struct {
	calls []string
	steps map[string]int
}

func (r *recorder) RunStarted(agent.Run) error { r.calls = append(r.calls, "run"); return nil }
func (r *recorder) AttemptStarted(_ string, a agent.Attempt) error {
	r.calls = append(r.calls, "start "+a.Slug)
	return nil
}
func (r *recorder) StepRecorded(_ string, slug string, _ agent.Step, _ []agent.Event) error {
	r.steps[slug]++
	return nil
}
func (r *recorder) AttemptFinished(_ string, a agent.Attempt) error {
	r.calls = append(r.calls, "finish "+a.Slug)
	return nil
}
func (r *recorder) RunFinished(_ string, s agent.RunStatus) error {
	r.calls = append(r.calls, "run "+string(s))
	return nil
}

// TestBookingAttemptsInChromium runs all eight attempts of the booking lab in real headless
// Chromium against the real lab server and checks every verdict and terminal state. The
// expectations are the seed's table; the verdicts come only from the runs. Screenshots and
// video are on, as they are for users, so sampling costs are part of what is tested.
func TestBookingAttemptsInChromium(t *testing.T) {
	want := map[string]struct {
		saved, notice, parallax, gate bool
		terminal                      agent.Terminal
	}{
		"saves-normally":           {true, true, true, true, agent.Completed},
		"notice-nothing-saved":     {false, true, true, false, agent.Failed},
		"wrong-room":               {false, true, true, false, agent.Failed},
		"save-refused":             {false, false, true, false, agent.Rejected},
		"fixed-wait-slow-save":     {false, false, true, false, agent.Failed},
		"renamed-button-exact":     {false, false, false, false, agent.Failed},
		"slow-save-condition-wait": {true, true, true, true, agent.Completed},
		"renamed-button-alias":     {true, true, true, true, agent.Completed},
	}
	rec := &recorder{steps: map[string]int{}}
	var progress []runner.Progress
	r := &runner.Runner{Lab: booking.New(), Launch: launcher(t), Recorder: rec, Emit: func(p runner.Progress) { progress = append(progress, p) }}
	run, err := r.Run(context.Background(), "e2e", runner.Options{MediaRoot: t.TempDir(), Video: true, Screenshots: true})
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != agent.RunFinished || len(run.Attempts) != len(want) {
		t.Fatalf("run %s with %d attempts, want finished with %d", run.Status, len(run.Attempts), len(want))
	}
	for _, a := range run.Attempts {
		w, ok := want[a.Slug]
		if !ok {
			t.Errorf("unexpected attempt %s", a.Slug)
			continue
		}
		v := a.Verdicts
		got := [4]bool{v.SavedAsAsked.Done, v.Notice.Done, v.Parallax.Done, v.Gate.Done}
		if got != [4]bool{w.saved, w.notice, w.parallax, w.gate} || a.Terminal != w.terminal {
			t.Errorf("%s: saved/notice/parallax/gate = %v, terminal %s (%s); want %v, %s", a.Slug, got, a.Terminal, a.Reason,
				[4]bool{w.saved, w.notice, w.parallax, w.gate}, w.terminal)
		}
		if len(v.Gate.Conditions) != 6 {
			t.Errorf("%s: the gate has %d conditions, want 6", a.Slug, len(v.Gate.Conditions))
		}
		if rec.steps[a.Slug] != len(a.Steps) || len(a.Steps) == 0 {
			t.Errorf("%s: recorded %d steps as they ran, the attempt has %d", a.Slug, rec.steps[a.Slug], len(a.Steps))
		}
		for _, s := range a.Steps {
			if len(s.Before.Pairs) == 0 || len(s.After.Pairs) == 0 {
				t.Errorf("%s step %d: before/after samples are empty", a.Slug, s.Index+1)
			}
		}
	}
	// The one-step failure stops at its first step; the others run the whole plan.
	for _, a := range run.Attempts {
		if a.Slug == "renamed-button-exact" && len(a.Steps) != 1 {
			t.Errorf("renamed-button-exact ran %d steps, want it to stop at the first", len(a.Steps))
		}
	}
	if progress[0].Kind != runner.RunStarted || progress[len(progress)-1].Kind != runner.RunFinished {
		t.Errorf("progress starts with %s and ends with %s", progress[0].Kind, progress[len(progress)-1].Kind)
	}
}

// TestCancelledRunCommitsNothing cancels a run while its slow save is pending: the attempt
// ends cancelled, the page is closed, and the lab commits nothing afterwards.
func TestCancelledRunCommitsNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	latency := 2000
	r := &runner.Runner{Lab: booking.New(), Launch: launcher(t), Emit: func(p runner.Progress) {
		if p.Kind == runner.StepDone && p.Step.Action.Kind == agent.ActSubmit {
			cancel() // the save is now in flight for two seconds
		}
	}}
	run, err := r.Run(ctx, "cancel", runner.Options{Attempts: []string{"saves-normally", "wrong-room"}, Override: agent.ConfigOverride{LatencyMS: &latency}})
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != agent.RunCancelled || len(run.Attempts) != 1 {
		t.Fatalf("run %s with %d attempts; want cancelled after the first", run.Status, len(run.Attempts))
	}
	a := run.Attempts[0]
	if a.Terminal != agent.Cancelled || a.Verdicts.SavedAsAsked.Done {
		t.Fatalf("attempt %s, saved %v (%s); want cancelled with nothing saved", a.Terminal, a.Verdicts.SavedAsAsked.Done, a.Reason)
	}
	if last := a.Events[len(a.Events)-1]; last.Type != "cancelled" {
		t.Errorf("last app event %q, want the pending save cancelled", last.Type)
	}
}

// TestVideoAndScreenshotsAreRecorded checks that an attempt leaves a WebM video and a
// screenshot for every sample, stored once per distinct frame.
func TestVideoAndScreenshotsAreRecorded(t *testing.T) {
	media := t.TempDir()
	r := &runner.Runner{Lab: booking.New(), Launch: launcher(t)}
	run, err := r.Run(context.Background(), "media", runner.Options{Attempts: []string{"saves-normally"}, MediaRoot: media, Video: true, Screenshots: true})
	if err != nil {
		t.Fatal(err)
	}
	a := run.Attempts[0]
	if a.Video == "" {
		t.Fatal("no video recorded")
	}
	b, err := os.ReadFile(filepath.Join(media, run.ID, a.Video))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 1024 || string(b[:4]) != "\x1a\x45\xdf\xa3" {
		t.Fatalf("video %s is %d bytes and does not start with the WebM (EBML) signature", a.Video, len(b))
	}
	for _, s := range a.Steps {
		for _, shot := range []string{s.Before.Screenshot, s.After.Screenshot} {
			if shot == "" {
				t.Fatalf("step %d has a sample without a screenshot", s.Index+1)
			}
			if _, err := os.Stat(filepath.Join(media, run.ID, shot)); errors.Is(err, os.ErrNotExist) {
				t.Fatalf("step %d: screenshot %s is missing", s.Index+1, shot)
			}
		}
	}
}
