package booking

import (
	"observatory/backend/agent"
	"observatory/backend/gate"
	"observatory/backend/labs/internal/labkit"
)

// Labels of the button that opens the dialog: its name, and the name the renamed fault gives it.
const (
	ReserveLabel = "Reserve slot"
	RenamedLabel = "Book a slot"
)

// Request is what the lab's one task asks for: a reservation's title and room.
type Request struct {
	Title string
	Room  string
}

// Requested is the lab's task: reserve North lab for "Spectral scan".
var Requested = Request{Title: "Spectral scan", Room: RoomNorth}

// ParamLatency names the attempt parameter for how long the server takes to answer a save,
// in milliseconds.
const ParamLatency = labkit.ParamLatency

// defaultLatencyMS is the save latency of an attempt that does not set one.
const defaultLatencyMS = 500

// Signal IDs and labels of the verdicts the lab judges beside its gate.
const (
	TruthLabel     = "saved as asked"
	SignalNotice   = "notice"
	NoticeLabel    = "success notice"
	SignalParallax = "parallax"
	ParallaxLabel  = "Parallax's check"
)

// Lab is the booking lab: its app, its built-in task, attempts and judge.
type Lab struct{ labkit.Lab[State, *Instance] }

// New returns the booking lab, serving its app on 127.0.0.1.
func New() *Lab { return &Lab{labkit.New(spec)} }

// spec declares the lab.
var spec = labkit.Spec[State, *Instance]{Rules: rules, Task: task, Plan: plan, Attempts: attempts,
	Latency: func(string) int { return defaultLatencyMS }, Start: Start}

// task is the lab's one task, as the intent record.
func task() agent.Task {
	return agent.Task{Name: "booking", Intent: `Reserve "Spectral scan" in room "north".`, StartURL: "/"}
}

// plan is the fixed plan of five actions on the app's real controls.
func plan() agent.Plan {
	return agent.Plan{
		{ID: "open-dialog", Description: "Open reservation dialog", Kind: agent.ActClick,
			Target: agent.Target{Role: "button", Name: ReserveLabel, Alias: RenamedLabel}},
		{ID: "fill-title", Description: "Fill task title", Kind: agent.ActFill,
			Target: agent.Target{Role: "textbox", Name: "Reservation title"}, Value: Requested.Title},
		{ID: "choose-room", Description: "Choose a room", Kind: agent.ActSelect,
			Target: agent.Target{Role: "combobox", Name: "Room"}, Value: Requested.Room},
		{ID: "submit", Description: "Submit reservation form", Kind: agent.ActSubmit,
			Target: agent.Target{Role: "button", Name: "Save reservation"}},
		{ID: "verify", Description: "Verify committed reservation", Kind: agent.ActVerify},
	}
}

// Save latencies of the attempts: a fast save, and the slow one the wait policies differ on.
const (
	fastSaveMS = 50
	slowSaveMS = 500
)

// attempts are the eight scripted attempts of the seed, each a fault and a configuration.
func attempts() []agent.AttemptSpec {
	return []agent.AttemptSpec{
		attempt("saves-normally", "Saves normally", FaultNone, fastSaveMS, nil),
		attempt("notice-nothing-saved", "Notice shown, nothing saved", FaultNoticeNoCommit, fastSaveMS, nil),
		attempt("wrong-room", "South lab, wrong room", FaultWrongRoom, fastSaveMS, nil),
		attempt("save-refused", "Save refused by the server", FaultRefused, fastSaveMS, nil),
		attempt("fixed-wait-slow-save", "Fixed 200 ms wait on a 500 ms save", FaultNone, slowSaveMS, func(c *agent.Config) {
			c.Wait, c.FixedWaitMS = agent.WaitFixed, 200
		}),
		attempt("renamed-button-exact", "Renamed button, exact names", FaultRenamed, fastSaveMS, func(c *agent.Config) {
			c.Selectors = agent.SelectExact
		}),
		attempt("slow-save-condition-wait", "Slow save, condition wait", FaultNone, slowSaveMS, func(c *agent.Config) {
			c.Wait = agent.WaitCondition
		}),
		attempt("renamed-button-alias", "Renamed button, alias policy", FaultRenamed, fastSaveMS, func(c *agent.Config) {
			c.Selectors = agent.SelectAlias
		}),
	}
}

// attempt builds one AttemptSpec from the default configuration, the save latency and an
// optional change.
func attempt(slug, title, fault string, latencyMS int, change func(*agent.Config)) agent.AttemptSpec {
	c := agent.DefaultConfig()
	if change != nil {
		change(&c)
	}
	return agent.AttemptSpec{Slug: slug, Title: title, Fault: fault, Params: map[string]int{ParamLatency: latencyMS}, Config: c}
}

// Signals are the cheap checks the seed compares with the gate: the success notice alone, and
// Parallax's rule.
func Signals(steps []agent.Step) []agent.Signal {
	return []agent.Signal{
		{ID: SignalNotice, Label: NoticeLabel, Verdict: gate.Notice(steps, SavedNotice)},
		{ID: SignalParallax, Label: ParallaxLabel, Verdict: gate.Parallax(steps)},
	}
}

// rules are the lab's pure parts, from which replaying and judging its attempts follow.
var rules = labkit.Rules[State]{Lab: "booking", Faults: Faults, Initial: Initial, Apply: Apply,
	TruthLabel: TruthLabel, Truth: func(s State) agent.Verdict { return SavedAsAsked(s, Requested) },
	Gate: func(s State) agent.Gate { return Gate(s, Requested) }, Settle: Settle,
	Signals: func(_ State, steps []agent.Step) []agent.Signal { return Signals(steps) }}
