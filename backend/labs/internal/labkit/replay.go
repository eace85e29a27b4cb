package labkit

import "observatory/backend/agent"

// Replay applies events in turn to initial through apply, a lab's transition function, and
// returns the final state, or the state before the first event apply refuses and apply's
// error.
func Replay[S any](initial S, apply func(S, agent.Event) (S, error), events []agent.Event) (S, error) {
	s := initial
	for _, ev := range events {
		next, err := apply(s, ev)
		if err != nil {
			return s, err
		}
		s = next
	}
	return s, nil
}

// inOrder wraps apply, for one replay from the initial state, so that it also refuses, with
// an *EventError, an event out of order after the one before it (see CheckOrder), for labs
// whose apply does not check the order (Rules.InOrder).
func inOrder[S any](apply func(S, agent.Event) (S, error)) func(S, agent.Event) (S, error) {
	seq, at := 0, int64(0)
	return func(s S, ev agent.Event) (S, error) {
		if why := CheckOrder(seq, at, ev); why != "" {
			return s, &EventError{Seq: ev.Seq, Type: ev.Type, Reason: why}
		}
		next, err := apply(s, ev)
		if err == nil {
			seq, at = ev.Seq, ev.AtMS
		}
		return next, err
	}
}

// Frames replays events one at a time from initial through apply, a lab's transition
// function: the initial state, then the state after each event, each with the gate that gate
// computes from it. An event apply refuses ends the replay with apply's error.
func Frames[S any](initial S, apply func(S, agent.Event) (S, error), gate func(S) agent.Gate, events []agent.Event) ([]agent.Frame, error) {
	s := initial
	frames := make([]agent.Frame, 0, len(events)+1)
	frames = append(frames, agent.Frame{Index: 0, State: s, Gate: gate(s)})
	for i := range events {
		next, err := apply(s, events[i])
		if err != nil {
			return nil, err
		}
		s = next
		frames = append(frames, agent.Frame{Index: i + 1, Event: &events[i], State: s, Gate: gate(s)})
	}
	return frames, nil
}
