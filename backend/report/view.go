package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"observatory/backend/agent"
	"observatory/backend/ledger"
)

// page is what the template renders: the run, its columns, and one view per attempt.
type page struct {
	Run      agent.Run
	Columns  []column
	Attempts []attemptView
	// Left says how many screenshots were left out to keep to MaxMedia; 0 when none were.
	Left int
	Max  string
}

// column is one verdict column of the attempts table.
type column struct {
	Key, Label string
}

// cell is one verdict in words, marked wrong where it disagrees with the ground truth.
type cell struct {
	Text, Evidence     string
	Wrong, Unconfirmed bool
}

type attemptView struct {
	Anchor, Title, Slug string
	Terminal, Reason    string
	Cells               []cell
	FirstUnmet          string
	Settings            string
	Conditions          []conditionView
	Verdicts            []verdictView
	Steps               []stepView
	Answers             []answerView
	// Ledger is the attempt's action ledger, one entry per step.
	Ledger []ledger.Entry
	// Turns are a model planner's turns that led to no step: the planning that ended it.
	Turns []turnView
}

type conditionView struct {
	Label, State, Class, Evidence, Answer string
}

type verdictView struct {
	Label string
	cell
}

type answerView struct {
	Label, Kind, Text string
	Failed            bool
}

type stepView struct {
	N                       int
	Description, Action     string
	Reason, Decision, Error string
	StartMS, DurationMS     int64
	Distance                string
	Before, After           shot
	Blocked                 []string
	// Boxes are drawn over the before screenshot; Nearest lists a miss's candidates.
	Boxes   []overlay
	Nearest []string
	// Turns are the model planner's turns that led to the step's action.
	Turns []turnView
}

// callOf is a verdict's call in words; a call the oracle could not make is never "not done".
func callOf(v agent.Verdict) string {
	switch {
	case v.Unconfirmed != "":
		return "could not confirm"
	case v.Done:
		return "done"
	}
	return "not done"
}

// columnsOf are the verdict columns an attempt's verdicts name: the truth, each signal, the gate.
func columnsOf(v agent.Verdicts) []column {
	cols := []column{{Key: v.Truth.ID, Label: sentence(v.Truth.Label)}}
	for _, s := range v.Signals {
		cols = append(cols, column{Key: s.ID, Label: sentence(s.Label)})
	}
	return append(cols, column{Key: agent.GateID, Label: "Completion gate"})
}

func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// cells are the attempt's calls under cols, in order.
func cells(v agent.Verdicts, cols []column) []cell {
	wrong := map[string]bool{}
	for _, id := range v.Wrong() {
		wrong[id] = true
	}
	out := make([]cell, len(cols))
	for i, c := range cols {
		switch {
		case i == 0:
			text := map[bool]string{true: "yes", false: "no"}[v.Truth.Done]
			if v.Truth.Unconfirmed != "" {
				text = "could not confirm"
			}
			out[i] = cell{Text: text, Evidence: v.Truth.Evidence, Unconfirmed: v.Truth.Unconfirmed != ""}
		case c.Key == agent.GateID:
			out[i] = cell{Text: callOf(agent.Verdict{Done: v.Gate.Done}), Evidence: gateEvidence(v.Gate), Wrong: wrong[c.Key]}
		default:
			s, ok := v.Signal(c.Key)
			if !ok {
				out[i] = cell{Text: "—", Evidence: "not recorded for this attempt"}
				continue
			}
			out[i] = cell{Text: callOf(s.Verdict), Evidence: s.Evidence, Wrong: wrong[c.Key], Unconfirmed: s.Unconfirmed != ""}
		}
	}
	return out
}

func gateEvidence(g agent.Gate) string {
	if g.Done {
		return fmt.Sprintf("all %d conditions hold", len(g.Conditions))
	}
	var failing []string
	for _, c := range g.Conditions {
		if !c.Done {
			failing = append(failing, c.Label+": "+callOf(c.Verdict))
		}
	}
	if len(failing) == 0 {
		return "no conditions"
	}
	return strings.Join(failing, "; ")
}

// answerText is an oracle answer in full: its raw JSON indented, with the characters JSON
// encoders escape for HTML (\u003c) shown as themselves (the template escapes them), or why
// there was no answer.
func answerText(a agent.Answer) (string, bool) {
	if a.Error != "" {
		return "no answer: " + a.Error, true
	}
	dec := json.NewDecoder(bytes.NewReader(a.Raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(a.Raw), false
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return string(a.Raw), false
	}
	return strings.TrimSuffix(b.String(), "\n"), false
}

// settings sums up what the attempt ran with: its config, fault and params.
func settings(a agent.Attempt) string {
	c := a.Config
	parts := []string{fmt.Sprintf("wait %s", c.Wait)}
	if c.Wait == agent.WaitFixed {
		parts = append(parts, fmt.Sprintf("fixed wait %d ms", c.FixedWaitMS))
	}
	parts = append(parts, fmt.Sprintf("poll %d ms", c.PollMS), fmt.Sprintf("deadline %d ms", c.DeadlineMS),
		fmt.Sprintf("selectors %s", c.Selectors), fmt.Sprintf("budget %d", c.Budget))
	if a.Fault != "" {
		parts = append(parts, "fault "+a.Fault)
	}
	keys := make([]string, 0, len(a.Params))
	for k := range a.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, a.Params[k]))
	}
	return strings.Join(parts, " · ")
}

// labels maps every verdict, signal and condition id of v to its label.
func labels(v agent.Verdicts) map[string]string {
	m := map[string]string{v.Truth.ID: v.Truth.Label}
	for _, s := range v.Signals {
		m[s.ID] = s.Label
	}
	for _, c := range v.Gate.Conditions {
		m[c.ID] = c.Label
	}
	return m
}
