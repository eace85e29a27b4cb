package app

import (
	"fmt"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/runner"
)

// TestLiveLogKeepsWhatRebuildsTheView checks the numbering and what the log keeps: an ended
// attempt's steps, checks, frames and waits go (its finished event carries its steps), a
// running one keeps its steps and only its newest frame and wait, and every event is
// numbered in order.
func TestLiveLogKeepsWhatRebuildsTheView(t *testing.T) {
	var l liveLog
	var sent []uint64
	to := emitterFunc(func(name string, data any) { sent = append(sent, data.(RunEvent).Seq) })
	for _, p := range []runner.Progress{
		{Kind: runner.RunStarted},
		{Kind: runner.AttemptStarted, Slug: "a"},
		{Kind: runner.AttemptStarted, Slug: "b"},
		{Kind: runner.StepDone, Slug: "a"},
		{Kind: runner.Frame, Slug: "a", Frame: "1.jpg"},
		{Kind: runner.StepDone, Slug: "b"},
		{Kind: runner.Frame, Slug: "b", Frame: "2.jpg"},
		{Kind: runner.CheckDone, Slug: "a"},
		{Kind: runner.Frame, Slug: "b", Frame: "3.jpg"},
		{Kind: runner.ModelWait, Slug: "a", Waiting: true},
		{Kind: runner.ModelWait, Slug: "b", Waiting: true},
		{Kind: runner.ModelWait, Slug: "b", Waiting: false},
		{Kind: runner.AttemptFinished, Slug: "a", Attempt: &agent.Attempt{Slug: "a"}},
	} {
		l.send(to, p)
	}
	var got []string
	for _, e := range l.events() {
		got = append(got, fmt.Sprintf("%d %s %s%s", e.Seq, e.Kind, e.Slug, e.Frame))
	}
	want := []string{"1 run-started ", "2 attempt-started a", "3 attempt-started b", "6 step b", "9 frame b3.jpg", "12 model-wait b", "13 attempt-finished a"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the log keeps %q, want %q", got, want)
	}
	if fmt.Sprint(sent) != "[1 2 3 4 5 6 7 8 9 10 11 12 13]" {
		t.Errorf("the window was sent events numbered %v, want 1 to 13", sent)
	}
}

// emitterFunc is an Emitter of a function.
type emitterFunc func(name string, data any)

func (f emitterFunc) Emit(name string, data any) { f(name, data) }
