package runner_test

import (
	"archive/zip"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/browser"
	"observatory/backend/browser/browsertest"
	"observatory/backend/internal/mediatest"
	"observatory/backend/labs"
	"observatory/backend/labs/booking"
	"observatory/backend/runfile"
	"observatory/backend/runner"
	"observatory/backend/store"
)

// launcher starts headless Chromium for each run, once browsertest.Ready has checked it can:
// a test without a browser fails where one is required and skips elsewhere.
func launcher(t *testing.T) runner.Launcher {
	t.Helper()
	browsertest.Ready(t)
	return func(ctx context.Context) (agent.Browser, error) {
		b, err := browser.Launch(ctx, browser.Options{Headless: true})
		if err != nil {
			return nil, err
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
func (r *recorder) AttemptStarted(_ string, _ int, a agent.Attempt) error {
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
func (r *recorder) MediaSaved(_, slug string, rec agent.Recording) error {
	r.calls = append(r.calls, "media "+slug+" "+rec.Video)
	return nil
}
func (r *recorder) RunFinished(_ string, s agent.RunStatus) error {
	r.calls = append(r.calls, "run "+string(s))
	return nil
}

// checkCalls checks that the run was recorded in order: started first, finished last, each
// attempt started before it finished, and its media saved, if any, after that.
func (r *recorder) checkCalls(t *testing.T, run agent.Run) {
	t.Helper()
	if len(r.calls) < 2 || r.calls[0] != "run" || r.calls[len(r.calls)-1] != "run "+string(run.Status) {
		t.Fatalf("recorded %v: want the run's start first and its end last", r.calls)
	}
	for _, a := range run.Attempts {
		start, finish, media := slices.Index(r.calls, "start "+a.Slug), slices.Index(r.calls, "finish "+a.Slug), -1
		if a.Video != "" {
			media = slices.Index(r.calls, "media "+a.Slug+" "+a.Video)
		}
		if start < 0 || finish < start || (a.Video != "" && media < finish) {
			t.Errorf("%s: recorded %v: want it started, finished, then its media saved", a.Slug, r.calls)
		}
	}
}

// checkSeedTable checks that run finished with the eight attempts of the seed's table in the
// lab's order, each with six gate conditions and sampled steps.
func checkSeedTable(t *testing.T, run agent.Run) {
	t.Helper()
	if run.Status != agent.RunFinished {
		t.Errorf("run %s, want finished", run.Status)
	}
	if err := booking.CheckTable(run.Attempts); err != nil {
		t.Error(err)
	}
	for _, a := range run.Attempts {
		if len(a.Verdicts.Gate.Conditions) != 6 {
			t.Errorf("%s: the gate has %d conditions, want 6", a.Slug, len(a.Verdicts.Gate.Conditions))
		}
		for _, s := range a.Steps {
			if len(s.Before.Pairs) == 0 || len(s.After.Pairs) == 0 {
				t.Errorf("%s step %d: before/after samples are empty", a.Slug, s.Index+1)
			}
		}
	}
}

// TestBookingAttemptsInParallel runs the eight attempts four at a time, each in its own
// context and lab instance, into a real store: the same table, in the lab's order, and every
// attempt stored whole at its position.
func TestBookingAttemptsInParallel(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := &runner.Runner{Suite: booking.New(), Launch: launcher(t), Recorder: st}
	run, err := r.Run(context.Background(), "parallel", runner.Options{Parallel: 4, Override: roomyDeadline()})
	if err != nil {
		t.Fatal(err)
	}
	checkSeedTable(t, run)
	stored, err := st.Get("parallel")
	if err != nil {
		t.Fatal(err)
	}
	checkSeedTable(t, stored)
	for i, a := range stored.Attempts {
		if len(a.Steps) != len(run.Attempts[i].Steps) || len(a.Events) != len(run.Attempts[i].Events) {
			t.Errorf("%s: stored %d steps and %d events, ran %d and %d", a.Slug, len(a.Steps), len(a.Events),
				len(run.Attempts[i].Steps), len(run.Attempts[i].Events))
		}
	}
}

// TestBookingAttemptsInChromium runs all eight attempts of the booking lab in real headless
// Chromium against the real lab server and checks every verdict and terminal state. The
// expectations are the seed's table; the verdicts come only from the runs. Screenshots are
// on, as they are for users, so the cost of recording is part of what is tested (video is
// checked on its own below).
func TestBookingAttemptsInChromium(t *testing.T) {
	rec := &recorder{steps: map[string]int{}}
	var progress []runner.Progress
	r := &runner.Runner{Suite: booking.New(), Launch: launcher(t), Recorder: rec, Emit: func(p runner.Progress) { progress = append(progress, p) }}
	run, err := r.Run(context.Background(), "e2e", runner.Options{MediaRoot: t.TempDir(), Media: agent.Media{Screenshots: true}})
	if err != nil {
		t.Fatal(err)
	}
	checkSeedTable(t, run)
	rec.checkCalls(t, run)
	for _, a := range run.Attempts {
		if rec.steps[a.Slug] != len(a.Steps) || len(a.Steps) == 0 {
			t.Errorf("%s: recorded %d steps as they ran, the attempt has %d", a.Slug, rec.steps[a.Slug], len(a.Steps))
		}
	}
	// The one-step failure stops at its first step; the others run the whole plan. The
	// fixed-wait attempt gives up on its save: nothing commits, a save that left is
	// cancelled, and nothing cut the page off before the submit (the form was filled online;
	// on a very busy machine the page's queued save may not have left by the decision).
	for _, a := range run.Attempts {
		switch a.Slug {
		case "renamed-button-exact":
			if len(a.Steps) != 1 {
				t.Errorf("renamed-button-exact ran %d steps, want it to stop at the first", len(a.Steps))
			}
			checkNearMiss(t, a.Steps[0])
		case "fixed-wait-slow-save":
			var types []string
			for _, e := range a.Events {
				types = append(types, e.Type)
			}
			filled := 0
			for _, ty := range types {
				if ty == "field_changed" {
					filled++
				}
			}
			cancelled := !slices.Contains(types, "save_requested") || types[len(types)-1] == "cancelled"
			if filled < 2 || !cancelled || slices.Contains(types, "committed") {
				t.Errorf("fixed-wait-slow-save logged %v; want the form filled online, then any save cancelled, nothing committed", types)
			}
		}
	}
	for _, a := range run.Attempts {
		checkTargetBoxes(t, a)
	}
	if progress[0].Kind != runner.RunStarted || progress[len(progress)-1].Kind != runner.RunFinished {
		t.Errorf("progress starts with %s and ends with %s", progress[0].Kind, progress[len(progress)-1].Kind)
	}
	t.Run("run file round trip", func(t *testing.T) { roundTrip(t, run) })
}

// checkNearMiss checks that the renamed button's miss names the button the page has instead
// among its candidates, best first, and in its error, with a box inside the viewport.
func checkNearMiss(t *testing.T, s agent.Step) {
	t.Helper()
	k := slices.IndexFunc(s.Candidates, func(c agent.Candidate) bool { return c.Role == "button" && c.Name == booking.RenamedLabel })
	if k < 0 {
		t.Fatalf("the renamed-button miss does not name button %q among %v; error: %s", booking.RenamedLabel, s.Candidates, s.Error)
	}
	if !slices.IsSortedFunc(s.Candidates, func(a, b agent.Candidate) int { return cmp.Compare(b.Similarity, a.Similarity) }) {
		t.Errorf("the miss's candidates %v are not best first", s.Candidates)
	}
	c := s.Candidates[k]
	if c.Similarity <= 0 {
		t.Errorf("the renamed button's similarity is %v", c.Similarity)
	}
	if b := c.Box; b.Width <= 0 || b.Height <= 0 || b.X < 0 || b.Y < 0 || b.X+b.Width > b.ViewportWidth || b.Y+b.Height > b.ViewportHeight {
		t.Errorf("the candidate's box %+v is not a visible element's", b)
	}
	if want := c.String(); !strings.Contains(s.Error, "nearest: ") || !strings.Contains(s.Error, want) {
		t.Errorf("the step's error %q does not name the candidate (%s)", s.Error, want)
	}
}

// checkTargetBoxes checks that every step that acted on a target recorded a box of a visible
// element in the page's 1000×700 viewport, and that no verify step, which touches nothing,
// has one.
func checkTargetBoxes(t *testing.T, a agent.Attempt) {
	t.Helper()
	for i, s := range a.Steps {
		b := s.TargetBox
		if s.Action.Kind == agent.ActVerify || s.Error != "" {
			if s.Action.Kind == agent.ActVerify && b != nil {
				t.Errorf("%s step %d (verify) recorded a box %+v", a.Slug, i+1, *b)
			}
			continue
		}
		if b == nil || b.Width <= 0 || b.Height <= 0 || b.ViewportWidth != 1000 || b.ViewportHeight != 700 {
			t.Errorf("%s step %d (%s) recorded box %+v, want a visible element's in a 1000×700 viewport", a.Slug, i+1, s.Action.Description, b)
		}
	}
}

// roundTrip exports a real run, replays the file (same table, no disagreement), imports it
// into a store and exports it again: the second file holds the same attempts.
func roundTrip(t *testing.T, run agent.Run) {
	var first bytes.Buffer
	if err := runfile.Encode(&first, run); err != nil {
		t.Fatal(err)
	}
	file, err := runfile.Decode(bytes.NewReader(first.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	res, err := runfile.Replay(booking.New(), file)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Disagreements) != 0 {
		t.Fatalf("replaying a genuine run disagrees with it: %+v", res.Disagreements)
	}
	for i, a := range res.Run.Attempts {
		if !reflect.DeepEqual(a.Verdicts, run.Attempts[i].Verdicts) || a.Terminal != run.Attempts[i].Terminal {
			t.Errorf("%s: replayed %+v %s, ran %+v %s", a.Slug, a.Verdicts, a.Terminal, run.Attempts[i].Verdicts, run.Attempts[i].Terminal)
		}
	}

	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	imported, err := runfile.Import(findLab, st, "shared.json", bytes.NewReader(first.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	stored, err := st.Get(imported.Run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if stored.Status != agent.RunImported || stored.Source != "shared.json" {
		t.Errorf("stored as %s from %q, want imported from shared.json", stored.Status, stored.Source)
	}
	var second bytes.Buffer
	if err := runfile.Encode(&second, stored); err != nil {
		t.Fatal(err)
	}
	again, err := runfile.Decode(&second)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(attemptsJSON(t, again.Run.Attempts), attemptsJSON(t, file.Run.Attempts)) {
		t.Error("exporting the imported run gives different attempts than the file it came from")
	}
}

// attemptsJSON is the attempts as their file JSON, the form two files are compared in.
func attemptsJSON(t *testing.T, a []agent.Attempt) string {
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCancelledRunCommitsNothing cancels a run while its slow save is pending: the attempt
// ends cancelled, the page's pending save is stopped so the lab commits nothing, and the
// store, reopened, shows the run cancelled with what it recorded intact.
func TestCancelledRunCommitsNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	latency := 500
	r := &runner.Runner{Suite: booking.New(), Launch: launcher(t), Recorder: st, Emit: func(p runner.Progress) {
		if p.Kind == runner.StepDone && p.Step.Action.Kind == agent.ActSubmit {
			cancel() // the save is now in flight for half a second
		}
	}}
	run, err := r.Run(ctx, "cancel", runner.Options{Attempts: []string{"saves-normally", "wrong-room"}, Params: map[string]int{booking.ParamLatency: latency}})
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != agent.RunCancelled || len(run.Attempts) != 1 {
		t.Fatalf("run %s with %d attempts; want cancelled after the first", run.Status, len(run.Attempts))
	}
	a := run.Attempts[0]
	if a.Terminal != agent.Cancelled || a.Verdicts.Truth.Done {
		t.Fatalf("attempt %s, saved %v (%s); want cancelled with nothing saved", a.Terminal, a.Verdicts.Truth.Done, a.Reason)
	}
	// The save may still have been queued in the page when the run stopped (a busy
	// machine); if it reached the lab, the lab must have cancelled it.
	requested := slices.ContainsFunc(a.Events, func(e agent.Event) bool { return e.Type == "save_requested" })
	if last := a.Events[len(a.Events)-1]; requested && last.Type != "cancelled" {
		t.Errorf("last app event %q, want the pending save cancelled", last.Type)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	reopened, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer reopened.Close()
	got, err := reopened.Get(run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != agent.RunCancelled || len(got.Attempts) != 1 || got.Attempts[0].Terminal != agent.Cancelled || len(got.Attempts[0].Steps) != len(a.Steps) {
		t.Errorf("reopened store: run %s, attempts %+v; want the cancelled run as recorded", got.Status, got.Attempts)
	}
}

// TestVideoAndScreenshotsAreRecorded checks that an attempt leaves a WebM video covering it,
// a Playwright trace, and a screenshot for every sample, stored once per distinct frame.
func TestVideoAndScreenshotsAreRecorded(t *testing.T) {
	media := t.TempDir()
	rec := &recorder{steps: map[string]int{}}
	var kinds []runner.Kind
	var saved *agent.Recording
	emit := func(p runner.Progress) {
		kinds = append(kinds, p.Kind)
		if p.Kind == runner.MediaSaved {
			saved = p.Media
		}
	}
	r := &runner.Runner{Suite: booking.New(), Launch: launcher(t), Recorder: rec, Emit: emit}
	run, err := r.Run(context.Background(), "media", runner.Options{Attempts: []string{"saves-normally"}, MediaRoot: media, Media: agent.Media{Video: true, Screenshots: true, Trace: true}})
	if err != nil {
		t.Fatal(err)
	}
	a := run.Attempts[0]
	if a.Video != "saves-normally.webm" || a.Trace != "saves-normally.trace.zip" {
		t.Fatalf("recorded video %q and trace %q, want both named after the attempt", a.Video, a.Trace)
	}
	// The recording is finished after the verdict, off the attempt's path, and before the
	// run ends: recorded and reported in that order.
	rec.checkCalls(t, run)
	finished, mediaAt := slices.Index(kinds, runner.AttemptFinished), slices.Index(kinds, runner.MediaSaved)
	if finished < 0 || mediaAt < finished || kinds[len(kinds)-1] != runner.RunFinished || saved == nil || *saved != (agent.Recording{Video: a.Video, Trace: a.Trace}) {
		t.Errorf("progress %v with media %+v: want the attempt finished, then its media saved, then the run's end", kinds, saved)
	}
	if z, err := zip.OpenReader(filepath.Join(media, run.ID, a.Trace)); err != nil {
		t.Errorf("the Playwright trace is not a zip: %v", err)
	} else {
		z.Close()
	}
	b, err := os.ReadFile(filepath.Join(media, run.ID, a.Video))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 1024 || string(b[:4]) != "\x1a\x45\xdf\xa3" {
		t.Fatalf("video %s is %d bytes and does not start with the WebM (EBML) signature", a.Video, len(b))
	}
	// The video starts when the page opens, just before the attempt's clock, so it must last
	// at least until the last step ended.
	last := a.Steps[len(a.Steps)-1]
	covered := float64(last.StartMS+last.DurationMS) / 1000
	secs, ok := mediatest.VideoSeconds(t, filepath.Join(media, run.ID, a.Video))
	if !ok {
		t.Fatal("cannot check the video's duration without ffprobe")
	}
	if secs < covered-0.1 {
		t.Errorf("the video lasts %.2f s; the attempt ran %.2f s", secs, covered)
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

// findLab resolves a run's task to a built-in lab, as the app does for runs without a task
// document.
func findLab(name string, _ json.RawMessage) (agent.Suite, error) { return labs.Get(name) }

// roomyDeadline lets condition waits poll for 4 s instead of the seed's 1.5 s. No row of the
// table depends on it (the condition-wait saves take 50 to 500 ms), but attempts running side
// by side on two cores poll slowly, and the seed's anchor run is the serial one.
func roomyDeadline() agent.ConfigOverride {
	d := 4000
	return agent.ConfigOverride{DeadlineMS: &d}
}

// TestSaveRefusedRecordsTheRefusedPOST runs the attempt whose save the lab refuses, with
// bodies recorded, into a real store: the step that sent the save holds the POST with its 409,
// the refusal in its body, and the browser's console line for it, and so does the stored run.
func TestSaveRefusedRecordsTheRefusedPOST(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := &runner.Runner{Suite: booking.New(), Launch: launcher(t), Recorder: st}
	run, err := r.Run(context.Background(), "refused", runner.Options{Attempts: []string{"save-refused"}, Media: agent.Media{Bodies: true}, Override: roomyDeadline()})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := st.Get("refused")
	if err != nil {
		t.Fatal(err)
	}
	for name, a := range map[string]agent.Attempt{"ran": run.Attempts[0], "stored": stored.Attempts[0]} {
		if a.Terminal != agent.Rejected {
			t.Fatalf("%s: save-refused ended %s, want rejected", name, a.Terminal)
		}
		var save *agent.Request
		var step, prev agent.Step
		for k, s := range a.Steps {
			for i, req := range s.Requests {
				if req.Method == "POST" && strings.HasSuffix(req.URL, "/api/reservations") {
					save, step = &s.Requests[i], s
					if k > 0 {
						prev = a.Steps[k-1]
					}
				}
			}
		}
		if save == nil {
			t.Fatalf("%s: no step recorded the save POST", name)
		}
		if step.Action.Kind != agent.ActSubmit && step.Action.Kind != agent.ActVerify {
			t.Errorf("%s: the save POST is recorded on a %s step, want the submit or the verify", name, step.Action.Kind)
		}
		if save.Status != 409 || save.StatusText != "Conflict" || save.ResourceType != "fetch" || save.Size <= 0 {
			t.Errorf("%s: save POST %+v, want fetch 409 Conflict with a sized body", name, *save)
		}
		if save.RequestBody == nil || !strings.Contains(save.RequestBody.Text, "Spectral scan") {
			t.Errorf("%s: save request body %+v, want the reservation", name, save.RequestBody)
		}
		if save.ResponseBody == nil || !strings.Contains(save.ResponseBody.Text, "North lab is closed for maintenance") {
			t.Errorf("%s: save response body %+v, want the refusal", name, save.ResponseBody)
		}
		// A request belongs to the step that sent it, whenever its answer came: it was sent
		// after the step before ended and before its own step did (a millisecond given to
		// rounding each side).
		if sent := save.StartMS; step.Action.Kind != agent.ActSubmit || sent < prev.StartMS+prev.DurationMS-1 || sent > step.StartMS+step.DurationMS+1 {
			t.Errorf("%s: the save sent at %d ms is recorded on the %s step of %d ms to %d ms, after one that ended at %d ms; want the submit that sent it", name,
				sent, step.Action.Kind, step.StartMS, step.StartMS+step.DurationMS, prev.StartMS+prev.DurationMS)
		}
		found := false
		for _, s := range a.Steps {
			for _, m := range s.Console {
				found = found || (m.Level == "error" && strings.Contains(m.Text, "409"))
			}
		}
		if !found {
			t.Errorf("%s: no console error for the 409", name)
		}
	}
}
