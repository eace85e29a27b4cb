package runner_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/labs/booking"
	"observatory/backend/runner"
)

// TestLiveFramesOfParallelAttempts runs two booking attempts side by side with the live view
// on and collects each attempt's screencast frames, in order, from its recorded start to its
// end (the rate they keep up is BenchmarkLiveStream's in bench/). Each attempt still ends as the seed's
// table says, and no frame arrives once its attempt has finished.
func TestLiveFramesOfParallelAttempts(t *testing.T) {
	var mu sync.Mutex
	frames := map[string][]time.Time{}
	finished := map[string]bool{}
	late := map[string]int{}
	emit := func(p runner.Progress) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case p.Kind == runner.AttemptFinished:
			finished[p.Slug] = true
		case p.Kind == runner.Screencast && p.Live == nil:
			t.Errorf("%s cannot be watched live: %s", p.Slug, p.Message)
		case p.Kind == runner.Screencast && finished[p.Slug]:
			late[p.Slug]++
		case p.Kind == runner.Screencast:
			if len(p.Live.JPEG) == 0 {
				t.Errorf("%s: an empty frame", p.Slug)
			}
			frames[p.Slug] = append(frames[p.Slug], p.Live.At)
		}
	}
	slugs := []string{"saves-normally", "slow-save-condition-wait"}
	r := &runner.Runner{Suite: booking.New(), Launch: launcher(t), Emit: emit}
	run, err := r.Run(context.Background(), "live", runner.Options{Attempts: slugs, Parallel: 2, Live: 100 * time.Millisecond,
		MediaRoot: t.TempDir(), Media: agent.Media{Video: true, Screenshots: true}, Override: roomyDeadline()})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, a := range run.Attempts {
		if want := booking.SeedTable[a.Slug]; booking.RowOf(a) != want {
			t.Errorf("%s: %+v (%s), want %+v", a.Slug, booking.RowOf(a), a.Reason, want)
		}
		if a.Video == "" {
			t.Errorf("%s: no video recorded beside the live view", a.Slug)
		}
		got := frames[a.Slug]
		if len(got) < 2 {
			t.Errorf("%s: %d live frames", a.Slug, len(got))
			continue
		}
		span := got[len(got)-1].Sub(a.Started)
		t.Logf("%s: %d frames over %s (first at %s)", a.Slug, len(got), span.Round(time.Millisecond), got[0].Sub(a.Started))
		for i := 1; i < len(got); i++ {
			if got[i].Before(got[i-1]) {
				t.Errorf("%s: frame %d is older than frame %d", a.Slug, i, i-1)
			}
		}
		if late[a.Slug] > 0 {
			t.Errorf("%s: %d frames arrived after the attempt finished", a.Slug, late[a.Slug])
		}
	}
	if len(run.Attempts) != 2 {
		t.Fatalf("%d attempts ran, want 2", len(run.Attempts))
	}
}
