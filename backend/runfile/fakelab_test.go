package runfile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"observatory/backend/agent"
	"observatory/backend/gate"
)

// fakeLab is a tiny booking app for tests: "open" opens the dialog, "save" (title, room)
// commits a record from the open dialog, "notice" (text) shows a notice after a save.
type fakeLab struct{}

// fakeState is the fake lab's state.
type fakeState struct {
	Open   bool   `json:"open"`
	Title  string `json:"title"`
	Room   string `json:"room"`
	Saved  bool   `json:"saved"`
	Notice string `json:"notice"`
}

const savedNotice = "Saved"

// fakeTitle and fakeRoom are what the fake lab's task asks for.
const (
	fakeTitle = "Spectral scan"
	fakeRoom  = "north"
)

func (fakeLab) Name() string { return "fake" }
func (fakeLab) Task() agent.Task {
	return agent.Task{Name: "fake", Intent: V1Intent(fakeTitle, fakeRoom), StartURL: "/"}
}
func (fakeLab) Plan() agent.Plan { return nil }
func (fakeLab) Attempts() []agent.AttemptSpec {
	spec := func(slug string) agent.AttemptSpec {
		return agent.AttemptSpec{Slug: slug, Config: agent.DefaultConfig(), Params: map[string]int{"latency_ms": 500}}
	}
	return []agent.AttemptSpec{spec("saves-normally"), spec("wrong-room")}
}
func (fakeLab) Start(context.Context, agent.AttemptSpec) (agent.Environment, error) {
	return nil, errors.New("the fake lab serves nothing")
}

// step is the fake lab's transition function.
func step(s fakeState, e agent.Event) (fakeState, error) {
	switch {
	case e.Type == "open" && !s.Open && !s.Saved:
		s.Open = true
	case e.Type == "save" && s.Open:
		s.Open, s.Saved, s.Title, s.Room = false, true, e.Data["title"], e.Data["room"]
	case e.Type == "notice" && s.Saved:
		s.Notice = e.Data["text"]
	default:
		return s, fmt.Errorf("event %d %q is not allowed in state %+v", e.Seq, e.Type, s)
	}
	return s, nil
}

func (fakeLab) fold(events []agent.Event) (fakeState, error) {
	var s fakeState
	for _, e := range events {
		var err error
		if s, err = step(s, e); err != nil {
			return s, err
		}
	}
	return s, nil
}

func (l fakeLab) Replay(events []agent.Event) error {
	_, err := l.fold(events)
	return err
}

func gateOf(s fakeState) agent.Gate {
	return agent.NewGate([]agent.Condition{
		{ID: "record", Verdict: agent.Verdict{Done: s.Saved}},
		{ID: "title", Verdict: agent.Verdict{Done: s.Title == fakeTitle}},
		{ID: "room", Verdict: agent.Verdict{Done: s.Room == fakeRoom}},
		{ID: "notice", Verdict: agent.Verdict{Done: s.Notice == savedNotice}},
	})
}

func (l fakeLab) Judge(ev agent.Evidence) (agent.Verdicts, error) {
	s, err := l.fold(ev.Events)
	if err != nil {
		return agent.Verdicts{}, err
	}
	asked := s.Saved && s.Title == fakeTitle && s.Room == fakeRoom
	return V1Verdicts(agent.Verdict{Done: asked, Evidence: fmt.Sprintf("record %+v", s)},
		gate.Notice(ev.Steps, savedNotice), gate.Parallax(ev.Steps), gateOf(s)), nil
}

// Frames rebuilds the fake state event by event.
func (fakeLab) Frames(events []agent.Event) ([]agent.Frame, error) {
	var s fakeState
	frames := []agent.Frame{{Index: 0, State: s, Gate: gateOf(s)}}
	for i := range events {
		var err error
		if s, err = step(s, events[i]); err != nil {
			return nil, err
		}
		frames = append(frames, agent.Frame{Index: i + 1, Event: &events[i], State: s, Gate: gateOf(s)})
	}
	return frames, nil
}

// findFake resolves the fake lab by name, as the app resolves real ones.
func findFake(name string, spec json.RawMessage) (agent.Suite, error) {
	if name != (fakeLab{}).Name() || len(spec) > 0 {
		return nil, fmt.Errorf("no lab called %q", name)
	}
	return fakeLab{}, nil
}
