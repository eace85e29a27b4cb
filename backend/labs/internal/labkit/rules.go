package labkit

import (
	"fmt"
	"slices"
	"strings"

	"observatory/backend/agent"
)

// Rules are a lab's pure parts: its fault modes, its initial state, its transition function,
// and how a state and the recorded steps decide the ground truth, the gate, whether waiting
// is pointless and the lab's cheaper signals. Replaying, framing and judging an attempt of the
// lab's own task, and checking its app's state live, follow from them the same way for every
// lab.
type Rules[S any] struct {
	// Lab names the lab in errors ("booking").
	Lab string
	// Faults are the fault modes an instance can be started with, the normal one first.
	Faults  []string
	Initial func() S
	Apply   Apply[S]
	// InOrder also refuses an event out of order after the one before it (see CheckOrder),
	// for an Apply that does not check the order itself.
	InOrder bool
	// TruthLabel and Truth are the ground truth's label and its verdict on a state.
	TruthLabel string
	Truth      func(S) agent.Verdict
	// Gate is the completion gate on a state.
	Gate func(S) agent.Gate
	// Settle says whether a state makes further waiting pointless, given the gate evaluated
	// on it (or on a state a moment newer): the terminal state and why, or "" while waiting
	// still makes sense.
	Settle func(S, agent.Gate) (agent.Terminal, string)
	// Signals are the lab's cheaper checks, from the state and the recorded steps; nil for none.
	Signals func(S, []agent.Step) []agent.Signal
}

// step is the transition function for one replay from the initial state.
func (r Rules[S]) step() func(S, agent.Event) (S, error) {
	if r.InOrder {
		return inOrder(r.Apply)
	}
	return r.Apply
}

// Rebuild replays events from the initial state and returns the final state, or the state
// before the first illegal event and its error.
func (r Rules[S]) Rebuild(events []agent.Event) (S, error) {
	return Replay(r.Initial(), r.step(), events)
}

// Replay validates events through the transition function; the error names the first illegal
// event.
func (r Rules[S]) Replay(events []agent.Event) error {
	_, err := r.Rebuild(events)
	return err
}

// Frames replays events one at a time: the initial state, then the state and the gate after
// each event. An illegal event ends the replay with its error.
func (r Rules[S]) Frames(events []agent.Event) ([]agent.Frame, error) {
	return Frames(r.Initial(), r.step(), r.Gate, events)
}

// TruthOf is the ground truth the events rebuild.
func (r Rules[S]) TruthOf(events []agent.Event) (agent.Signal, error) {
	s, err := r.Rebuild(events)
	if err != nil {
		return agent.Signal{}, fmt.Errorf("judge the %s attempt: replay its events: %w", r.Lab, err)
	}
	return agent.Signal{ID: "truth", Label: r.TruthLabel, Verdict: r.Truth(s)}, nil
}

// Judge computes an attempt's verdicts: the ground truth and the gate from the state its
// events rebuild, the cheaper signals from that state and its recorded steps.
func (r Rules[S]) Judge(ev agent.Evidence) (agent.Verdicts, error) {
	truth, err := r.TruthOf(ev.Events)
	if err != nil {
		return agent.Verdicts{}, err
	}
	s, _ := r.Rebuild(ev.Events)
	v := agent.Verdicts{Truth: truth, Gate: r.Gate(s)}
	if r.Signals != nil {
		v.Signals = r.Signals(s, ev.Steps)
	}
	return v, nil
}

// Check evaluates the completion gate on s, and whether s makes further waiting pointless.
func (r Rules[S]) Check(s S) agent.Check {
	g := r.Gate(s)
	settled, why := r.Settle(s, g)
	return agent.Check{Gate: g, Settled: settled, SettledReason: why}
}

// checkFault returns an error naming the lab's fault modes when fault is not one of them.
func (r Rules[S]) checkFault(fault string) error {
	if slices.Contains(r.Faults, fault) {
		return nil
	}
	return fmt.Errorf("unknown %s fault %q: use one of %s", r.Lab, fault, strings.Join(r.Faults, ", "))
}
