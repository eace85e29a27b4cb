package outbox

import (
	"context"
	"fmt"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// Requested is the lab's task: send Alice the Q3 figures.
var Requested = Request{
	To:      "alice@example.com",
	Subject: "Q3 figures",
	Body:    "Hi Alice, here are the Q3 figures before Friday's board meeting.",
}

// WrongRecipient is the address the recipient-changed fault puts in the To field.
const WrongRecipient = "alicia@example.org"

// ParamLatency names the attempt parameter for how long the server takes to answer a send,
// in milliseconds.
const ParamLatency = "latency_ms"

// Send latencies: the usual one, and the slow-send fault's.
const (
	defaultLatencyMS = 50
	SlowSendMS       = 600
)

// Signal IDs and labels of the verdicts the lab judges beside its gate.
const (
	TruthLabel   = "sent as asked"
	SignalNotice = "notice"
	NoticeLabel  = "sent notice"
)

// Lab is the outbox lab: its app, its built-in task, attempts and judge. The zero value is
// ready to use, serving its app on 127.0.0.1.
type Lab struct {
	// host is the address its app listens on and advertises; empty is 127.0.0.1.
	host string
}

var (
	_ agent.Suite     = (*Lab)(nil)
	_ agent.Replayer  = (*Lab)(nil)
	_ agent.LookUpLog = (*Lab)(nil)
)

// New returns the outbox lab.
func New() *Lab { return &Lab{} }

// On returns the lab serving its app on host instead, an address the browser can reach.
func (*Lab) On(host string) *Lab { return &Lab{host: host} }

// Name is the lab's name on the command line and in run files.
func (*Lab) Name() string { return "outbox" }

// Task is the lab's one task, as the intent record.
func (*Lab) Task() agent.Task {
	return agent.Task{Name: "outbox", StartURL: "/",
		Intent: fmt.Sprintf("Send %s the message %q: %q.", Requested.To, Requested.Subject, Requested.Body)}
}

// Launch serves a fresh instance of the app with the given fault and parameters.
func (l *Lab) Launch(fault string, params map[string]int) (*Instance, error) {
	if fault == "" {
		fault = FaultNone
	}
	latency := defaultLatencyMS
	if fault == FaultSlowSend {
		latency = SlowSendMS
	}
	latency, err := labkit.IntParam("outbox", params, ParamLatency, latency)
	if err != nil {
		return nil, err
	}
	return Start(l.host, fault, latency)
}

// Start serves a fresh instance for one attempt of the lab's own task.
func (l *Lab) Start(_ context.Context, spec agent.AttemptSpec) (agent.Environment, error) {
	in, err := l.Launch(spec.Fault, spec.Params)
	if err != nil {
		return nil, err
	}
	return newEnvironment(in), nil
}

// Signals are the cheap check the lab compares with the gate: the page said "Message sent".
func Signals(s State) []agent.Signal {
	v := agent.Verdict{Evidence: "the page never said the message was sent"}
	if s.Notice != "" {
		v = agent.Verdict{Done: true, Evidence: fmt.Sprintf("the page shows %q", s.Notice)}
	}
	return []agent.Signal{{ID: SignalNotice, Label: NoticeLabel, Verdict: v}}
}

// LookUps are the look-ups of operation ids the store answered, in order, as the events
// rebuild them.
func (*Lab) LookUps(events []agent.Event) ([]agent.LookUp, error) {
	s, err := Rebuild(events)
	if err != nil {
		return nil, err
	}
	out := make([]agent.LookUp, len(s.LookUps))
	for i, l := range s.LookUps {
		out[i] = agent.LookUp{OpID: l.OpID, Found: l.Found}
	}
	return out, nil
}

// rules are the lab's pure parts, from which replaying and judging its attempts follow.
var rules = labkit.Rules[State]{Lab: "outbox", Initial: Initial, Apply: Apply,
	TruthLabel: TruthLabel, Truth: func(s State) agent.Verdict { return SentAsAsked(s, Requested) },
	Gate:    func(s State) agent.Gate { return Gate(s, Requested) },
	Signals: func(s State, _ []agent.Step) []agent.Signal { return Signals(s) }}

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
