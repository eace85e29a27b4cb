package labkit

import (
	"context"
	"fmt"

	"observatory/backend/agent"
)

// ParamLatency names the one parameter a lab may take: how long its server takes over its
// slow answers, in milliseconds.
const ParamLatency = "latency_ms"

// Running is a lab's instance as Lab starts it: an Instance with the state its gate reads.
type Running[S any] interface {
	Instance
	State() S
}

// Spec is what a lab declares: its rules, its one task with its plan and scripted attempts,
// its latency parameter, and how it serves an instance of its app. Lab makes the rest of a
// lab's suite from it the same way for every lab.
type Spec[S any, I Running[S]] struct {
	Rules    Rules[S]
	Task     func() agent.Task
	Plan     func() agent.Plan
	Attempts func() []agent.AttemptSpec
	// Latency is the default of the ParamLatency parameter for a fault; nil for a lab that
	// takes no parameter.
	Latency func(fault string) int
	// Start serves a fresh instance on host (127.0.0.1 when empty) playing fault, whose slow
	// answers wait latencyMS milliseconds.
	Start func(host, fault string, latencyMS int) (I, error)
	// Environment is an instance as an attempt of the lab's own task runs against it, given
	// the plain one (see Environment); nil for the plain one.
	Environment func(in I, plain Environment) agent.Environment
}

// Lab is a lab's suite made from its Spec: its app served on a host, its built-in task,
// attempts and judge.
type Lab[S any, I Running[S]] struct {
	spec *Spec[S, I]
	// host is the address its app listens on and advertises; empty is 127.0.0.1.
	host string
}

var (
	_ agent.Suite    = Lab[int, Running[int]]{}
	_ agent.Replayer = Lab[int, Running[int]]{}
)

// New returns the lab spec declares, serving its app on 127.0.0.1.
func New[S any, I Running[S]](spec Spec[S, I]) Lab[S, I] { return Lab[S, I]{spec: &spec} }

// On returns the lab serving its app on host instead, an address the browser can reach.
func (l Lab[S, I]) On(host string) Lab[S, I] { return Lab[S, I]{spec: l.spec, host: host} }

// Name is the lab's name on the command line and in run files.
func (l Lab[S, I]) Name() string { return l.spec.Rules.Lab }

// Task is the lab's one task, as the intent record.
func (l Lab[S, I]) Task() agent.Task { return l.spec.Task() }

// Plan is the lab's fixed plan.
func (l Lab[S, I]) Plan() agent.Plan { return l.spec.Plan() }

// Attempts are the lab's scripted attempts.
func (l Lab[S, I]) Attempts() []agent.AttemptSpec { return l.spec.Attempts() }

// Launch serves a fresh instance of the app with the given fault (the normal one when empty)
// and parameters.
func (l Lab[S, I]) Launch(fault string, params map[string]int) (I, error) {
	if fault == "" {
		fault = l.spec.Rules.Faults[0]
	}
	latency, err := l.latency(fault, params)
	if err != nil {
		var zero I
		return zero, err
	}
	return l.spec.Start(l.host, fault, latency)
}

// latency is the value of the lab's latency parameter for fault in params.
func (l Lab[S, I]) latency(fault string, params map[string]int) (int, error) {
	if l.spec.Latency != nil {
		return IntParam(l.Name(), params, ParamLatency, l.spec.Latency(fault))
	}
	for k := range params {
		return 0, fmt.Errorf("%s lab has no parameter %q; it has none", l.Name(), k)
	}
	return 0, nil
}

// Start serves a fresh instance for one attempt of the lab's own task.
func (l Lab[S, I]) Start(_ context.Context, spec agent.AttemptSpec) (agent.Environment, error) {
	in, err := l.Launch(spec.Fault, spec.Params)
	if err != nil {
		return nil, err
	}
	plain := Environment{Instance: in, Gate: func() agent.Check { return l.spec.Rules.Check(in.State()) }}
	if l.spec.Environment == nil {
		return plain, nil
	}
	return l.spec.Environment(in, plain), nil
}

// Replay validates events through the transition function; the error names the first illegal
// event.
func (l Lab[S, I]) Replay(events []agent.Event) error { return l.spec.Rules.Replay(events) }

// Judge computes the attempt's verdicts from its recorded evidence (see Rules.Judge).
func (l Lab[S, I]) Judge(ev agent.Evidence) (agent.Verdicts, error) { return l.spec.Rules.Judge(ev) }

// Truth is the ground truth the events rebuild.
func (l Lab[S, I]) Truth(events []agent.Event) (agent.Signal, error) {
	return l.spec.Rules.TruthOf(events)
}

// Frames replays events one at a time: the initial state, then the state and the gate after
// each event. An illegal event ends the replay with its error.
func (l Lab[S, I]) Frames(events []agent.Event) ([]agent.Frame, error) {
	return l.spec.Rules.Frames(events)
}
