package canvas

import (
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

// Lab is the canvas lab: its app, its built-in task, attempts and judge.
type Lab struct{ labkit.Lab[State, *Instance] }

// New returns the canvas lab, serving its app on 127.0.0.1.
func New() *Lab { return &Lab{labkit.New(spec)} }

// spec declares the lab; it takes no parameter.
var spec = labkit.Spec[State, *Instance]{Rules: rules, Task: task, Plan: plan, Attempts: attempts,
	Start: func(host, fault string, _ int) (*Instance, error) { return Start(host, fault) }}

// task is the lab's one task, as the intent record.
func task() agent.Task {
	return agent.Task{Name: "canvas", StartURL: "/",
		Intent: fmt.Sprintf("Move the %s from %s to %s.", Knight, From, To)}
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
var rules = labkit.Rules[State]{Lab: "canvas", Faults: Faults, Initial: Initial, Apply: Apply, InOrder: true,
	TruthLabel: TruthLabel, Truth: func(s State) agent.Verdict { return MovedAsAsked(s) },
	Gate: Gate, Settle: Settle,
	Signals: func(_ State, steps []agent.Step) []agent.Signal { return []agent.Signal{Reported(steps)} }}
