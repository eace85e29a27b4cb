package outbox

import (
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
const ParamLatency = labkit.ParamLatency

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

// Lab is the outbox lab: its app, its built-in task, attempts and judge.
type Lab struct{ labkit.Lab[State, *Instance] }

var _ agent.LookUpLog = (*Lab)(nil)

// New returns the outbox lab, serving its app on 127.0.0.1.
func New() *Lab { return &Lab{labkit.New(spec)} }

// spec declares the lab.
var spec = labkit.Spec[State, *Instance]{Rules: rules, Task: task, Plan: plan, Attempts: attempts,
	Latency: latency, Start: Start, Environment: newEnvironment}

// task is the lab's one task, as the intent record.
func task() agent.Task {
	return agent.Task{Name: "outbox", StartURL: "/",
		Intent: fmt.Sprintf("Send %s the message %q: %q.", Requested.To, Requested.Subject, Requested.Body)}
}

// latency is how long a send takes with fault: the slow-send fault's, or the usual latency.
func latency(fault string) int {
	if fault == FaultSlowSend {
		return SlowSendMS
	}
	return defaultLatencyMS
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
var rules = labkit.Rules[State]{Lab: "outbox", Faults: Faults, Initial: Initial, Apply: Apply,
	TruthLabel: TruthLabel, Truth: func(s State) agent.Verdict { return SentAsAsked(s, Requested) },
	Gate: func(s State) agent.Gate { return Gate(s, Requested) }, Settle: Settle,
	Signals: func(s State, _ []agent.Step) []agent.Signal { return Signals(s) }}
