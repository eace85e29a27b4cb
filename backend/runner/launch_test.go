package runner_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/labs/booking"
	"observatory/backend/runner"
)

// TestLaunchFailures covers a browser that cannot start and a run stopped while it starts:
// neither panics, the first is an error that keeps the launcher's advice and leaves the run
// interrupted, the second is a cancelled run, and both report their end exactly once.
func TestLaunchFailures(t *testing.T) {
	noChromium := errors.New("no Chromium found: install Debian's chromium package")
	tests := []struct {
		name    string
		launch  func(context.Context, context.CancelFunc) (agent.Browser, error)
		wantErr string
		status  agent.RunStatus
	}{
		{"browser missing", func(context.Context, context.CancelFunc) (agent.Browser, error) { return nil, noChromium },
			"install Debian's chromium package", agent.RunInterrupted},
		{"stopped while starting", func(ctx context.Context, cancel context.CancelFunc) (agent.Browser, error) {
			cancel()
			<-ctx.Done()
			return nil, ctx.Err()
		}, "", agent.RunCancelled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			rec := &recorder{steps: map[string]int{}}
			finishes, last := 0, runner.Kind("")
			r := &runner.Runner{Suite: booking.New(), Recorder: rec,
				Launch: func(ctx context.Context) (agent.Browser, error) { return tt.launch(ctx, cancel) },
				Emit: func(p runner.Progress) {
					if p.Kind == runner.RunFinished {
						finishes++
					}
					last = p.Kind
				}}
			run, err := r.Run(ctx, "launch", runner.Options{})
			if (err == nil) != (tt.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("error %v, want one mentioning %q", err, tt.wantErr)
			}
			if run.Status != tt.status || finishes != 1 || last != runner.RunFinished || rec.calls[len(rec.calls)-1] != "run "+string(tt.status) {
				t.Errorf("run %s, %d finish events, recorded %v; want %s once", run.Status, finishes, rec.calls, tt.status)
			}
		})
	}
}

// TestBadRequestsRecordNothing checks that a request the runner refuses leaves no run behind.
func TestBadRequestsRecordNothing(t *testing.T) {
	zero := 0
	for _, tt := range []struct {
		name    string
		opts    runner.Options
		wantErr string
	}{
		{"unknown attempt", runner.Options{Attempts: []string{"nope"}}, `no attempt "nope"`},
		{"repeated attempt", runner.Options{Attempts: []string{"wrong-room", "wrong-room"}}, "named twice"},
		{"poll out of range", runner.Options{Override: agent.ConfigOverride{PollMS: &zero}}, "poll 0 ms"},
	} {
		rec := &recorder{steps: map[string]int{}}
		r := &runner.Runner{Suite: booking.New(), Recorder: rec, Launch: func(context.Context) (agent.Browser, error) {
			t.Fatal("a refused request must not start a browser")
			return nil, nil
		}}
		_, err := r.Run(context.Background(), "bad", tt.opts)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) || len(rec.calls) != 0 {
			t.Errorf("%s: error %v, recorded %v; want an error mentioning %q and nothing recorded", tt.name, err, rec.calls, tt.wantErr)
		}
	}
}
