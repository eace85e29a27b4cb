package booking

import (
	"fmt"

	"observatory/backend/agent"
	"observatory/backend/gate"
)

// Labels of the button that opens the dialog: its name, and the name the renamed fault gives it.
const (
	ReserveLabel = "Reserve slot"
	RenamedLabel = "Book a slot"
)

// Lab is the booking lab as the executor sees it. The zero value is ready to use.
type Lab struct{}

var _ agent.Lab = (*Lab)(nil)

// New returns the booking lab.
func New() *Lab { return &Lab{} }

// Name is the lab's name on the command line and in run files.
func (*Lab) Name() string { return "booking" }

// Task is the lab's one task: reserve North lab for "Spectral scan".
func (*Lab) Task() agent.Task { return agent.Task{Title: "Spectral scan", Room: RoomNorth} }

// Plan is the fixed plan of five actions on the app's real controls.
func (l *Lab) Plan() agent.Plan {
	task := l.Task()
	return agent.Plan{
		{ID: "open-dialog", Description: "Open reservation dialog", Kind: agent.ActClick,
			Target: agent.Target{Role: "button", Name: ReserveLabel, Alias: RenamedLabel}},
		{ID: "fill-title", Description: "Fill task title", Kind: agent.ActFill,
			Target: agent.Target{Role: "textbox", Name: "Reservation title"}, Value: task.Title},
		{ID: "choose-room", Description: "Choose a room", Kind: agent.ActSelect,
			Target: agent.Target{Role: "combobox", Name: "Room"}, Value: task.Room},
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

// Attempts are the eight scripted attempts of the seed, each a fault and a configuration.
func (*Lab) Attempts() []agent.AttemptSpec {
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
	c.LatencyMS = latencyMS
	if change != nil {
		change(&c)
	}
	return agent.AttemptSpec{Slug: slug, Title: title, Fault: fault, Config: c}
}

// Start serves a fresh instance of the app with the given fault and save latency.
func (*Lab) Start(fault string, latencyMS int) (agent.Instance, error) {
	in, err := Start(fault, latencyMS)
	if err != nil {
		return nil, err
	}
	return in, nil
}

// Replay validates events through the transition function; the error names the first illegal
// event.
func (*Lab) Replay(events []agent.Event) error {
	_, err := Rebuild(events)
	return err
}

// Judge computes the four verdicts of an attempt: ground truth and the gate from the state the
// events rebuild, the notice check and Parallax's rule from the observed steps.
func (*Lab) Judge(task agent.Task, events []agent.Event, steps []agent.Step) (agent.Verdicts, error) {
	s, err := Rebuild(events)
	if err != nil {
		return agent.Verdicts{}, fmt.Errorf("judge the booking attempt: replay its events: %w", err)
	}
	return agent.Verdicts{
		SavedAsAsked: SavedAsAsked(s, task),
		Notice:       gate.Notice(steps, SavedNotice),
		Parallax:     gate.Parallax(steps),
		Gate:         Gate(s, task),
	}, nil
}

// Frames replays events one at a time through Apply: the initial state, then the state and
// the gate after each event. An illegal event ends the replay with its error.
func (*Lab) Frames(task agent.Task, events []agent.Event) ([]agent.Frame, error) {
	s := Initial()
	frames := make([]agent.Frame, 0, len(events)+1)
	frames = append(frames, agent.Frame{Index: 0, State: s, Gate: Gate(s, task)})
	for i := range events {
		next, err := Apply(s, events[i])
		if err != nil {
			return nil, err
		}
		s = next
		frames = append(frames, agent.Frame{Index: i + 1, Event: &events[i], State: s, Gate: Gate(s, task)})
	}
	return frames, nil
}
