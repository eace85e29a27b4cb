package compare

import (
	"time"

	"observatory/backend/agent"
)

// Field names a difference between the two sides of a row: FieldPresent, FieldTerminal,
// FieldSteps, FieldDuration, or a check's ID (agent.GateID, a signal's ID, TruthID).
type Field = string

// The fields a row's Differs may name besides a check's ID.
const (
	// FieldPresent: one run has the attempt, the other has not.
	FieldPresent Field = "present"
	// FieldTerminal: the attempts ended in different terminal states.
	FieldTerminal Field = "terminal"
	// FieldSteps: they took different numbers of steps.
	FieldSteps Field = "steps"
	// FieldDuration: one took more than DurationRatio times as long as the other.
	FieldDuration Field = "duration"
)

// TruthID names the ground truth among a row's checks.
const TruthID = "truth"

// DurationRatio is how many times longer one side's duration must be (and at least
// DurationSlack longer) to count as a difference. Timings vary between runs of the same
// attempt, by half again on a busy machine (two unchanged booking runs measured 332 against
// 220 ms), so only a change no load explains is called one.
const DurationRatio = 2

// DurationSlack is the least gap, in ms, between two durations that counts as a difference.
const DurationSlack = 1000

// Run names one side of a comparison.
type Run struct {
	ID      string          `json:"id"`
	Task    string          `json:"task"`
	Created time.Time       `json:"created"`
	Status  agent.RunStatus `json:"status"`
	Source  string          `json:"source"`
}

// Check names one verdict column: the ground truth, a signal or the gate.
type Check struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// Call is one side's verdict in one check's column.
type Call struct {
	ID   string `json:"id"`
	Done bool   `json:"done"`
	// Unconfirmed: the oracle could not answer (the call is "could not confirm").
	Unconfirmed bool `json:"unconfirmed,omitempty"`
	// Wrong: the call disagrees with the ground truth (never set on the truth itself).
	Wrong bool `json:"wrong,omitempty"`
}

// Side is what one run recorded of one attempt.
type Side struct {
	Terminal agent.Terminal `json:"terminal"`
	Reason   string         `json:"reason"`
	// Calls are the attempt's verdicts, in the comparison's Checks order; a check this run's
	// task does not declare is absent.
	Calls []Call `json:"calls"`
	// Wrong counts the calls marked wrong.
	Wrong int `json:"wrong"`
	Steps int `json:"steps"`
	// DurationMS is when its last step ended, from the attempt's start.
	DurationMS int64 `json:"duration_ms"`
}

// Row is one attempt slug in both runs. A or B is nil where that run has no such attempt.
type Row struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
	A     *Side  `json:"a"`
	B     *Side  `json:"b"`
	// Differs names what differs between A and B, in column order; empty when nothing does.
	Differs []Field `json:"differs"`
}

// Comparison is two runs side by side, attempt by attempt.
type Comparison struct {
	A Run `json:"a"`
	B Run `json:"b"`
	// Checks are the verdict columns: the ground truth, then the signals and the gate as
	// run A declares them, then any only run B declares.
	Checks []Check `json:"checks"`
	// Rows follow run A's attempts in order, then those only run B has.
	Rows []Row `json:"rows"`
	// Differing counts the rows with at least one difference.
	Differing int `json:"differing"`
	// Settings are the settings of the attempts both runs have whose values differ (the wait
	// policy, a lab's latency, the fault), by attempt then name; empty when they ran alike.
	Settings []Setting `json:"settings"`
}

// Runs compares run a with run b; see the package comment.
func Runs(a, b agent.Run) Comparison {
	c := Comparison{A: runOf(a), B: runOf(b), Rows: []Row{}, Settings: []Setting{}}
	c.Checks = checks(a, b)
	bySlug := make(map[string]agent.Attempt, len(b.Attempts))
	for _, at := range b.Attempts {
		bySlug[at.Slug] = at
	}
	seen := make(map[string]bool, len(a.Attempts))
	for _, at := range a.Attempts {
		seen[at.Slug] = true
		row := Row{Slug: at.Slug, Title: at.Title, A: side(at, c.Checks)}
		if other, ok := bySlug[at.Slug]; ok {
			row.B = side(other, c.Checks)
			c.Settings = append(c.Settings, settings(at.Slug, ranWith{at.Config, at.Fault, at.Params}, ranWith{other.Config, other.Fault, other.Params})...)
		}
		c.add(row)
	}
	for _, at := range b.Attempts {
		if !seen[at.Slug] {
			c.add(Row{Slug: at.Slug, Title: at.Title, B: side(at, c.Checks)})
		}
	}
	return c
}

// add appends row with its differences found.
func (c *Comparison) add(row Row) {
	row.Differs = differs(row.A, row.B, c.Checks)
	if len(row.Differs) > 0 {
		c.Differing++
	}
	c.Rows = append(c.Rows, row)
}

func runOf(r agent.Run) Run {
	return Run{ID: r.ID, Task: r.Task, Created: r.Created, Status: r.Status, Source: r.Source}
}

// checks lists the verdict columns of both runs: the truth, a's signals and gate, then b's
// signals a lacks. Labels come from the first attempt that declares each.
func checks(runs ...agent.Run) []Check {
	out := []Check{{ID: TruthID}}
	seen := map[string]bool{TruthID: true}
	addCheck := func(id, label string) {
		if !seen[id] {
			seen[id] = true
			out = append(out, Check{ID: id, Label: label})
		}
	}
	for _, r := range runs {
		for _, at := range r.Attempts {
			if out[0].Label == "" {
				out[0].Label = at.Verdicts.Truth.Label
			}
			for _, s := range at.Verdicts.Signals {
				addCheck(s.ID, s.Label)
			}
			addCheck(agent.GateID, "completion gate")
		}
	}
	if out[0].Label == "" {
		out[0].Label = "ground truth"
	}
	return out
}

// side is what an attempt recorded, its calls in the order of cols.
func side(at agent.Attempt, cols []Check) *Side {
	v := at.Verdicts
	wrong := map[string]bool{}
	for _, id := range v.Wrong() {
		wrong[id] = true
	}
	s := &Side{Terminal: at.Terminal, Reason: at.Reason, Steps: len(at.Steps), Calls: []Call{}}
	for _, col := range cols {
		call, ok := callOf(v, col.ID)
		if !ok {
			continue
		}
		call.Wrong = wrong[col.ID]
		if call.Wrong {
			s.Wrong++
		}
		s.Calls = append(s.Calls, call)
	}
	for _, st := range at.Steps {
		s.DurationMS = max(s.DurationMS, st.StartMS+st.DurationMS)
	}
	return s
}

// callOf is the verdict id names in v, if v has it.
func callOf(v agent.Verdicts, id string) (Call, bool) {
	switch id {
	case TruthID:
		return Call{ID: id, Done: v.Truth.Done, Unconfirmed: v.Truth.Unconfirmed != ""}, true
	case agent.GateID:
		return Call{ID: id, Done: v.Gate.Done}, true
	}
	if s, ok := v.Signal(id); ok {
		return Call{ID: id, Done: s.Done, Unconfirmed: s.Unconfirmed != ""}, true
	}
	return Call{}, false
}

// differs names what differs between a and b, in column order.
func differs(a, b *Side, cols []Check) []Field {
	if a == nil || b == nil {
		return []Field{FieldPresent}
	}
	out := []Field{}
	if a.Terminal != b.Terminal {
		out = append(out, FieldTerminal)
	}
	for _, col := range cols {
		ca, okA := find(a.Calls, col.ID)
		cb, okB := find(b.Calls, col.ID)
		if okA != okB || ca != cb {
			out = append(out, col.ID)
		}
	}
	if a.Steps != b.Steps {
		out = append(out, FieldSteps)
	}
	if longer(a.DurationMS, b.DurationMS) || longer(b.DurationMS, a.DurationMS) {
		out = append(out, FieldDuration)
	}
	return out
}

// longer reports whether x is more than DurationRatio times y and at least DurationSlack more.
func longer(x, y int64) bool {
	return x-y >= DurationSlack && float64(x) > DurationRatio*float64(y)
}

func find(calls []Call, id string) (Call, bool) {
	for _, c := range calls {
		if c.ID == id {
			return c, true
		}
	}
	return Call{}, false
}
