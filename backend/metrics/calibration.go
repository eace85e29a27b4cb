package metrics

import (
	"cmp"
	"slices"

	"observatory/backend/agent"
	"observatory/backend/stats"
)

// Reference is what a signal's calls are compared with.
type Reference string

// References.
const (
	// AgainstTruth compares with ground truth; where a task declares none, the gate stands
	// in (and Calibrated.GateStandsIn counts those attempts).
	AgainstTruth Reference = "truth"
	// AgainstGate compares with the completion gate.
	AgainstGate Reference = "gate"
)

// AttemptRef names one attempt of one stored run, as the trace viewer opens it.
type AttemptRef struct {
	Run     string `json:"run"`
	Attempt string `json:"attempt"`
}

// Confusion is a signal's calls against a reference, each cell with the attempts behind it:
// done or not done, right or wrong. Unconfirmed are the attempts where the signal or the
// reference could not confirm: they count in no cell.
type Confusion struct {
	TrueDone     []AttemptRef `json:"true_done"`
	FalseDone    []AttemptRef `json:"false_done"`
	FalseNotDone []AttemptRef `json:"false_not_done"`
	TrueNotDone  []AttemptRef `json:"true_not_done"`
	Unconfirmed  []AttemptRef `json:"unconfirmed"`
}

// Rate is a proportion with its Wilson 95% interval.
type Rate struct {
	stats.Proportion
	Interval stats.Interval `json:"interval"`
}

func rateOf(k, n int) Rate {
	p := stats.Proportion{K: k, N: n}
	return Rate{Proportion: p, Interval: p.Wilson()}
}

// Calibrated is one signal's calibration against one reference.
type Calibrated struct {
	// Signal is the signal's ID (agent.GateID for the gate itself), Label its label.
	Signal    string    `json:"signal"`
	Label     string    `json:"label"`
	Against   Reference `json:"against"`
	Confusion Confusion `json:"confusion"`
	// FalseDone is the attempts the signal called done where the reference says not, of
	// every attempt both called; Precision is its done calls that were right, Recall the
	// reference's done attempts it called done.
	FalseDone Rate `json:"false_done"`
	Precision Rate `json:"precision"`
	Recall    Rate `json:"recall"`
	// GateStandsIn counts the attempts compared against truth whose task declares no ground
	// truth: the gate's call stood in for it.
	GateStandsIn int `json:"gate_stands_in,omitempty"`
	// Pooled are the labels the signal had in this slice, in the order first seen, when it had
	// more than one: the overall slice pools each task's own notice under one signal.
	Pooled []string `json:"pooled,omitempty"`
}

// CalibrationSlice is the calibration of every signal seen in one group of attempts, in the
// order they first appear, each against the truth and then the gate.
type CalibrationSlice struct {
	Key     string       `json:"key"`
	Signals []Calibrated `json:"signals"`
}

// Calibration is how often each signal (the notice, Parallax's rule, each model judge, the
// agent's claim, and the gate itself) agrees with ground truth and with the gate, per group
// of attempts and overall.
type Calibration struct {
	By      By                 `json:"by"`
	Slices  []CalibrationSlice `json:"slices"`
	Overall CalibrationSlice   `json:"overall"`
}

// Calibrate groups the runs' finished attempts by by and calibrates each signal in each group.
func Calibrate(runs []agent.Run, by By) Calibration {
	groups := map[string]*calibrating{}
	all := &calibrating{}
	for _, run := range runs {
		for _, a := range run.Attempts {
			if a.Terminal == "" {
				continue
			}
			k := keyOf(by, run, a)
			if groups[k] == nil {
				groups[k] = &calibrating{}
			}
			ref := AttemptRef{Run: run.ID, Attempt: a.Slug}
			groups[k].add(ref, a.Verdicts)
			all.add(ref, a.Verdicts)
		}
	}
	c := Calibration{By: by, Slices: []CalibrationSlice{}}
	for k, g := range groups {
		c.Slices = append(c.Slices, g.slice(k))
	}
	slices.SortFunc(c.Slices, func(a, b CalibrationSlice) int { return cmp.Compare(a.Key, b.Key) })
	c.Overall = all.slice(OverallKey)
	return c
}

// calibrating accumulates a group's calibrations, keyed by signal and reference.
type calibrating struct {
	order []*Calibrated
}

// add counts one attempt's verdicts: each signal, and the gate, against the truth; each
// signal against the gate.
func (g *calibrating) add(ref AttemptRef, v agent.Verdicts) {
	standsIn := v.Truth.Label == agent.GateAsTruthLabel
	gate := agent.Verdict{Done: v.Gate.Done} // the gate always calls: not done unless proven
	for _, s := range v.Signals {
		g.count(s.ID, s.Label, AgainstTruth, ref, s.Verdict, v.Truth.Verdict, standsIn)
		g.count(s.ID, s.Label, AgainstGate, ref, s.Verdict, gate, false)
	}
	g.count(agent.GateID, "completion gate", AgainstTruth, ref, gate, v.Truth.Verdict, standsIn)
}

// count puts one call against its reference's into the signal's confusion table.
func (g *calibrating) count(id, label string, against Reference, ref AttemptRef, call, truth agent.Verdict, standsIn bool) {
	var c *Calibrated
	for _, x := range g.order {
		if x.Signal == id && x.Against == against {
			c = x
		}
	}
	if c == nil {
		c = &Calibrated{Signal: id, Label: label, Against: against}
		g.order = append(g.order, c)
	}
	if !slices.Contains(c.Pooled, label) {
		c.Pooled = append(c.Pooled, label)
	}
	cf := &c.Confusion
	switch {
	case call.Unconfirmed != "" || truth.Unconfirmed != "":
		cf.Unconfirmed = append(cf.Unconfirmed, ref)
		return
	case call.Done && truth.Done:
		cf.TrueDone = append(cf.TrueDone, ref)
	case call.Done:
		cf.FalseDone = append(cf.FalseDone, ref)
	case truth.Done:
		cf.FalseNotDone = append(cf.FalseNotDone, ref)
	default:
		cf.TrueNotDone = append(cf.TrueNotDone, ref)
	}
	if standsIn {
		c.GateStandsIn++
	}
}

// slice computes the group's rates.
func (g *calibrating) slice(key string) CalibrationSlice {
	out := CalibrationSlice{Key: key, Signals: []Calibrated{}}
	for _, c := range g.order {
		cf := c.Confusion
		td, fd, fn, tn := len(cf.TrueDone), len(cf.FalseDone), len(cf.FalseNotDone), len(cf.TrueNotDone)
		c.FalseDone = rateOf(fd, td+fd+fn+tn)
		c.Precision = rateOf(td, td+fd)
		c.Recall = rateOf(td, td+fn)
		one := *c
		if len(one.Pooled) < 2 {
			one.Pooled = nil
		}
		out.Signals = append(out.Signals, one)
	}
	rank := func(c Calibrated) int {
		if c.Against == AgainstTruth {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(out.Signals, func(a, b Calibrated) int { return cmp.Compare(rank(a), rank(b)) })
	return out
}
