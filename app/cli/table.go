package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"observatory/backend/agent"
	"observatory/backend/termsafe"
)

// column is one verdict column of an attempts table: the ground truth, a signal or the gate.
type column struct {
	id, label string
	done      func(agent.Verdicts) (bool, bool)
}

// columns are the verdict columns of attempts, taken from their verdicts: the ground truth,
// each signal the task declares in its order, then the completion gate.
func columns(attempts []agent.Attempt) []column {
	truth := "ground truth"
	var sigs []agent.Signal
	for _, a := range attempts {
		if a.Verdicts.Truth.Label != "" {
			truth = a.Verdicts.Truth.Label
		}
		for _, sg := range a.Verdicts.Signals {
			if !slices.ContainsFunc(sigs, func(x agent.Signal) bool { return x.ID == sg.ID }) {
				sigs = append(sigs, sg)
			}
		}
	}
	cols := []column{{id: "truth", label: truth, done: func(v agent.Verdicts) (bool, bool) { return v.Truth.Done, true }}}
	for _, sg := range sigs {
		id := sg.ID
		cols = append(cols, column{id: id, label: sg.Label, done: func(v agent.Verdicts) (bool, bool) {
			s, ok := v.Signal(id)
			return s.Done, ok
		}})
	}
	return append(cols, column{id: agent.GateID, label: "completion gate", done: func(v agent.Verdicts) (bool, bool) { return v.Gate.Done, true }})
}

// printTable writes the attempts table: the ground truth, then every other way of deciding,
// each marked when it disagrees with the ground truth, then the terminal state.
func printTable(w io.Writer, attempts []agent.Attempt) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	cols := columns(attempts)
	head := []string{"ATTEMPT"}
	for _, c := range cols {
		head = append(head, safe(strings.ToUpper(c.label)))
	}
	fmt.Fprintln(tw, strings.Join(append(head, "TERMINAL"), "\t"))
	wrongBy := map[string]int{}
	for _, a := range attempts {
		v := a.Verdicts
		wrong := v.Wrong()
		for _, n := range wrong {
			wrongBy[n]++
		}
		row := []string{safe(a.Slug)}
		for i, c := range cols {
			done, ok := c.done(v)
			switch {
			case !ok:
				row = append(row, "-")
			case i == 0:
				row = append(row, yesNo(done))
			default:
				cell := "not done"
				if done {
					cell = "done"
				}
				if slices.Contains(wrong, c.id) {
					cell += " (wrong)"
				}
				row = append(row, cell)
			}
		}
		fmt.Fprintln(tw, strings.Join(append(row, safe(a.Terminal)), "\t"))
	}
	n := len(attempts)
	foot := []string{"WRONG", ""}
	for _, c := range cols[1:] {
		foot = append(foot, fmt.Sprintf("%d of %d", wrongBy[c.id], n))
	}
	fmt.Fprintln(tw, strings.Join(append(foot, ""), "\t"))
	_ = tw.Flush()
}

// printReasons writes one line per attempt saying why it ended as it did.
func printReasons(w io.Writer, attempts []agent.Attempt) {
	for _, a := range attempts {
		fmt.Fprintf(w, "%s: %s: %s\n", safe(a.Slug), safe(a.Terminal), safe(a.Reason))
		for _, c := range a.Verdicts.Gate.Conditions {
			if !c.Done {
				fmt.Fprintf(w, "    gate: %s: %s\n", safe(c.Label), safe(c.Evidence))
			}
		}
	}
}

// safe makes a string that came from a file, a page or the store safe to print: see
// termsafe.String.
func safe[S ~string](s S) string { return termsafe.String(string(s)) }

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// jsonRow is one attempt in `run --json` and `verify --json` output: the ground truth, each
// signal by ID and the gate as booleans, then the full verdicts with their evidence.
type jsonRow struct {
	Attempt  string          `json:"attempt"`
	Title    string          `json:"title"`
	Truth    bool            `json:"truth"`
	Signals  map[string]bool `json:"signals"`
	Gate     bool            `json:"gate"`
	Terminal agent.Terminal  `json:"terminal"`
	Reason   string          `json:"reason"`
	Wrong    []string        `json:"wrong"`
	Verdicts agent.Verdicts  `json:"verdicts"`
}

func jsonRows(attempts []agent.Attempt) []jsonRow {
	rows := make([]jsonRow, 0, len(attempts))
	for _, a := range attempts {
		v := a.Verdicts
		wrong := v.Wrong()
		if wrong == nil {
			wrong = []string{}
		}
		sigs := make(map[string]bool, len(v.Signals))
		for _, s := range v.Signals {
			sigs[s.ID] = s.Done
		}
		rows = append(rows, jsonRow{Attempt: a.Slug, Title: a.Title, Truth: v.Truth.Done, Signals: sigs,
			Gate: v.Gate.Done, Terminal: a.Terminal, Reason: a.Reason, Wrong: wrong, Verdicts: v})
	}
	return rows
}

// slugList renders attempt slugs for messages.
func slugList(specs []agent.AttemptSpec) string {
	s := make([]string, len(specs))
	for i, a := range specs {
		s[i] = a.Slug
	}
	return strings.Join(s, ", ")
}
