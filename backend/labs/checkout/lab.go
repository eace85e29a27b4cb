package checkout

import (
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
const ParamLatency = labkit.ParamLatency

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

// Lab is the checkout lab: its app, its built-in task, attempts and judge.
type Lab struct{ labkit.Lab[State, *Instance] }

// New returns the checkout lab, serving its app on 127.0.0.1.
func New() *Lab { return &Lab{labkit.New(spec)} }

// spec declares the lab.
var spec = labkit.Spec[State, *Instance]{Rules: rules, Task: task, Plan: plan, Attempts: attempts,
	Latency: func(string) int { return defaultLatencyMS }, Start: Start}

// task is the lab's one task, as the intent record, with where the page shows who is signed
// in, the price and total a payment depends on, and the page's version.
func task() agent.Task {
	return agent.Task{Name: "checkout", StartURL: "/",
		Intent: fmt.Sprintf("Buy the %s (%s) as %s at the quoted %s.", Product.Name, Product.ID, Requested.Account, Requested.Amount),
		Authority: &agent.Authority{
			Principal:   &agent.Probe{TestID: "account"},
			Relevant:    []agent.Probe{{ID: "price", TestID: "price"}, {ID: "total", TestID: "total"}},
			Version:     &agent.Probe{TestID: "version"},
			FreshnessMS: freshnessMS,
		}}
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
var rules = labkit.Rules[State]{Lab: "checkout", Faults: Faults, Initial: Initial, Apply: Apply,
	TruthLabel: TruthLabel, Truth: func(s State) agent.Verdict { return PaidAsAsked(s, Requested) },
	Gate: func(s State) agent.Gate { return Gate(s, Requested) }, Settle: Settle,
	Signals: func(s State, _ []agent.Step) []agent.Signal { return Signals(s) }}
