package runner_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/labs/booking"
	"observatory/backend/runner"
)

// TestLeanEvidence runs the eight booking attempts at lean evidence in real Chromium: the same
// table as at full evidence, every sample kept, and a screenshot only where something went
// wrong (a failed step, a step whose request failed) and on the attempt's last look, with no
// video; the attempts say their level, and the run file replays and imports as recorded.
func TestLeanEvidence(t *testing.T) {
	media := t.TempDir()
	r := &runner.Runner{Suite: booking.New(), Launch: launcher(t)}
	run, err := r.Run(context.Background(), "lean", runner.Options{MediaRoot: media, Override: roomyDeadline(),
		Media: agent.Media{Video: true, Screenshots: true, Evidence: agent.EvidenceLean}})
	if err != nil {
		t.Fatal(err)
	}
	checkSeedTable(t, run)
	for _, a := range run.Attempts {
		if a.EvidenceLevel != agent.EvidenceLean || a.Video != "" {
			t.Errorf("%s: recorded at %q with video %q, want lean and no video", a.Slug, a.EvidenceLevel, a.Video)
		}
		last := len(a.Steps) - 1
		for i, s := range a.Steps {
			failedRequest := false
			for _, q := range s.Traffic.Requests {
				failedRequest = failedRequest || q.Failed()
			}
			pictured := s.After.Screenshot != ""
			// A request is filed under the step that sent it once the attempt ends, so its step
			// may have been judged before its answer came: the step that then saw it is pictured.
			if (s.Error != "" || i == last) && !pictured {
				t.Errorf("%s step %d (%s): not pictured, though it failed (%q) or is the last look", a.Slug, i+1, s.Action.Description, s.Error)
			}
			if pictured && s.Error == "" && !failedRequest && i != last {
				t.Errorf("%s step %d (%s): pictured, though nothing went wrong there", a.Slug, i+1, s.Action.Description)
			}
			if s.Before.Screenshot != "" && i > 0 {
				t.Errorf("%s step %d: a before screenshot at lean evidence", a.Slug, i+1)
			}
			if s.After.Screenshot != "" {
				if _, err := os.Stat(filepath.Join(media, run.ID, s.After.Screenshot)); err != nil {
					t.Errorf("%s step %d: %v", a.Slug, i+1, err)
				}
			}
		}
	}
	refused, found := run.Attempts[3], false
	for _, s := range refused.Steps {
		for _, q := range s.Traffic.Requests {
			found = found || (q.Method == "POST" && q.Status == 409)
		}
	}
	if refused.Slug != "save-refused" || !found {
		t.Errorf("%s: no step carries the save the server refused (409)", refused.Slug)
	}
	roundTrip(t, run)
}

// TestFirstTrialEvidence repeats a booking attempt three times at --evidence first-trial in
// real Chromium: the first trial keeps every step's pictures and its video, the later two are
// lean, each trial saying its level, and all three judged alike.
func TestFirstTrialEvidence(t *testing.T) {
	media := t.TempDir()
	r := &runner.Runner{Suite: booking.New(), Launch: launcher(t)}
	run, err := r.Run(context.Background(), "first-trial", runner.Options{MediaRoot: media, Override: roomyDeadline(),
		Attempts: []string{"saves-normally"}, Repeat: 3,
		Media: agent.Media{Video: true, Screenshots: true, Evidence: agent.EvidenceFirstTrial}})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Attempts) != 3 {
		t.Fatalf("%d attempts, want 3 trials", len(run.Attempts))
	}
	for _, a := range run.Attempts {
		pictured := 0
		for _, s := range a.Steps {
			if s.Before.Screenshot != "" {
				pictured++
			}
		}
		full := a.Trial == 1
		switch {
		case a.Terminal != agent.Completed:
			t.Errorf("trial %d ended %s, want completed", a.Trial, a.Terminal)
		case full && (a.EvidenceLevel != "" && a.EvidenceLevel != agent.EvidenceFull || a.Video == "" || pictured != len(a.Steps)):
			t.Errorf("trial 1: level %q, video %q, %d of %d befores pictured; want full evidence", a.EvidenceLevel, a.Video, pictured, len(a.Steps))
		case !full && (a.EvidenceLevel != agent.EvidenceLean || a.Video != "" || pictured > 1):
			t.Errorf("trial %d: level %q, video %q, %d befores pictured; want lean", a.Trial, a.EvidenceLevel, a.Video, pictured)
		}
	}
	roundTrip(t, run)
}
