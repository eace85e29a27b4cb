package canvas

import (
	"context"
	"fmt"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// Signal IDs and labels of the verdicts the lab judges beside its gate.
const (
	TruthLabel     = "moved as asked"
	SignalReported = "reported"
	ReportedLabel  = "every action reported success"
)

// Lab is the canvas lab: its app, its built-in task, attempts and judge. The zero value is
// ready to use.
type Lab struct {
	// host is the address its app listens on and advertises; empty is 127.0.0.1.
	host string
}

var (
	_ agent.Suite    = (*Lab)(nil)
	_ agent.Replayer = (*Lab)(nil)
)

// New returns the canvas lab.
func New() *Lab { return &Lab{} }

// On returns the lab serving its app on host instead, an address the browser can reach.
func (*Lab) On(host string) *Lab { return &Lab{host: host} }

// Name is the lab's name on the command line and in run files.
func (*Lab) Name() string { return "canvas" }

// Task is the lab's one task, as the intent record.
func (*Lab) Task() agent.Task {
	return agent.Task{Name: "canvas", StartURL: "/",
		Intent: fmt.Sprintf("Move the %s from %s to %s.", Knight, From, To)}
}

// Launch serves a fresh instance of the board with the given fault; the lab has no
// parameters.
func (l *Lab) Launch(fault string, params map[string]int) (*Instance, error) {
	if fault == "" {
		fault = FaultNone
	}
	for k := range params {
		return nil, fmt.Errorf("canvas lab has no parameter %q; it has none", k)
	}
	return Start(l.host, fault)
}

// Start serves a fresh instance for one attempt of the lab's own task.
func (l *Lab) Start(_ context.Context, spec agent.AttemptSpec) (agent.Environment, error) {
	in, err := l.Launch(spec.Fault, spec.Params)
	if err != nil {
		return nil, err
	}
	return labkit.Environment{Instance: in, Gate: in.Check}, nil
}

// Reported is the cheap signal a blind agent trusts: every action it took reported success.
func Reported(steps []agent.Step) agent.Signal {
	v := agent.Verdict{Evidence: "no action ran"}
	ran := 0
	for _, s := range steps {
		if s.Action.Kind == agent.ActVerify || s.Decision.Admission != agent.Allow {
			continue
		}
		if s.Error != "" {
			v = agent.Verdict{Evidence: fmt.Sprintf("step %d (%s) failed: %s", s.Index+1, s.Action.Description, s.Error)}
			return agent.Signal{ID: SignalReported, Label: ReportedLabel, Verdict: v}
		}
		ran++
	}
	if ran > 0 {
		v = agent.Verdict{Done: true, Evidence: fmt.Sprintf("all %d action(s) reported success", ran)}
	}
	return agent.Signal{ID: SignalReported, Label: ReportedLabel, Verdict: v}
}

// rules are the lab's pure parts, from which replaying and judging its attempts follow.
var rules = labkit.Rules[State]{Lab: "canvas", Initial: Initial, Apply: Apply, InOrder: true,
	TruthLabel: TruthLabel, Truth: func(s State) agent.Verdict { return MovedAsAsked(s) },
	Gate:    Gate,
	Signals: func(_ State, steps []agent.Step) []agent.Signal { return []agent.Signal{Reported(steps)} }}

// Replay validates events through the transition function; the error names the first illegal
// event.
func (*Lab) Replay(events []agent.Event) error { return rules.Replay(events) }

// Judge computes the attempt's verdicts from its recorded evidence (see labkit.Rules.Judge).
func (*Lab) Judge(ev agent.Evidence) (agent.Verdicts, error) { return rules.Judge(ev) }

// Truth is the ground truth the events rebuild.
func (*Lab) Truth(events []agent.Event) (agent.Signal, error) { return rules.TruthOf(events) }

// Frames replays events one at a time: the initial state, then the state and the gate after
// each event. An illegal event ends the replay with its error.
func (*Lab) Frames(events []agent.Event) ([]agent.Frame, error) { return rules.Frames(events) }
