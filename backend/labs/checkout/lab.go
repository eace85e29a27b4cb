package checkout

import (
	"context"
	"fmt"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// Product is the one product the shop sells.
var Product = struct{ ID, Name string }{ID: "p-100", Name: "Lab notebook"}

// The accounts the shop knows: the one the task buys as, and the one another tab switches to.
const (
	OtherAccount = "bob"
)

// Accounts lists the shop's accounts in order.
var Accounts = []string{Requested.Account, OtherAccount}

// Requested is the lab's task: buy the lab notebook as alice at the quoted 20.00.
var Requested = Request{Account: "alice", Product: Product.ID, Amount: "20.00"}

// ChangedPrice is the price the price-changed fault re-quotes the product at.
const ChangedPrice = "25.00"

// ParamLatency names the attempt parameter for how long the server takes to answer a
// payment, in milliseconds.
const ParamLatency = "latency_ms"

const defaultLatencyMS = 50

// Signal IDs and labels of the verdicts the lab judges beside its gate.
const (
	TruthLabel   = "ordered as asked"
	SignalNotice = "notice"
	NoticeLabel  = "order notice"
)

// freshnessMS is how old the observation Pay acts on may be: generous, since the executor
// observes immediately before acting, but an approval left waiting must not be acted on.
const freshnessMS = 5000

// Lab is the checkout lab: its app, its built-in task, attempts and judge. The zero value is
// ready to use.
type Lab struct {
	// host is the address its app listens on and advertises; empty is 127.0.0.1.
	host string
}

var (
	_ agent.Suite    = (*Lab)(nil)
	_ agent.Replayer = (*Lab)(nil)
)

// New returns the checkout lab.
func New() *Lab { return &Lab{} }

// On returns the lab serving its app on host instead, an address the browser can reach.
func (*Lab) On(host string) *Lab { return &Lab{host: host} }

// Name is the lab's name on the command line and in run files.
func (*Lab) Name() string { return "checkout" }

// Task is the lab's one task, as the intent record, with where the page shows who is signed
// in, the price and total a payment depends on, and the page's version.
func (*Lab) Task() agent.Task {
	return agent.Task{Name: "checkout", StartURL: "/",
		Intent: fmt.Sprintf("Buy the %s (%s) as %s at the quoted %s.", Product.Name, Product.ID, Requested.Account, Requested.Amount),
		Authority: &agent.Authority{
			Principal:   &agent.Probe{TestID: "account"},
			Relevant:    []agent.Probe{{ID: "price", TestID: "price"}, {ID: "total", TestID: "total"}},
			Version:     &agent.Probe{TestID: "version"},
			FreshnessMS: freshnessMS,
		}}
}

// Launch serves a fresh instance of the app with the given fault and parameters.
func (l *Lab) Launch(fault string, params map[string]int) (*Instance, error) {
	if fault == "" {
		fault = FaultNone
	}
	latency := defaultLatencyMS
	latency, err := labkit.IntParam("checkout", params, ParamLatency, latency)
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
	return labkit.Environment{Instance: in, Gate: func() agent.Check { return in.Check(Requested) }}, nil
}

// Signals are the cheap check the lab compares with the gate: the page said an order was
// placed.
func Signals(s State) []agent.Signal {
	v := agent.Verdict{Evidence: "the page never said an order was placed"}
	if s.Notice != "" {
		v = agent.Verdict{Done: true, Evidence: fmt.Sprintf("the page shows %q", s.Notice)}
	}
	return []agent.Signal{{ID: SignalNotice, Label: NoticeLabel, Verdict: v}}
}

// rules are the lab's pure parts, from which replaying and judging its attempts follow.
var rules = labkit.Rules[State]{Lab: "checkout", Initial: Initial, Apply: Apply,
	TruthLabel: TruthLabel, Truth: func(s State) agent.Verdict { return PaidAsAsked(s, Requested) },
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
