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

// column is one verdict column of an attempts table: the ground truth, a signal (the agent's
// claim among them) or the gate. done says what the column says of an attempt, and false
// when it says nothing; unconfirmed, when set, says the column could not make its call.
type column struct {
	id, label   string
	done        func(agent.Attempt) (bool, bool)
	unconfirmed func(agent.Attempt) bool
}

// unconfirmedCell is the cell of a call that could not be made: neither yes nor no.
const unconfirmedCell = "could not confirm"

// columns are the verdict columns of attempts, taken from their verdicts: the ground truth,
// each signal the task declares in its order, the agent's claim when an agent made one (a
// model planner, an MCP client, an outside process), then the completion gate.
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
	cols := []column{{id: "truth", label: truth, done: func(a agent.Attempt) (bool, bool) { return a.Verdicts.Truth.Done, true },
		unconfirmed: func(a agent.Attempt) bool { return !a.Verdicts.TruthKnown() }}}
	for _, sg := range sigs {
		id := sg.ID
		cols = append(cols, column{id: id, label: sg.Label, done: func(a agent.Attempt) (bool, bool) {
			s, ok := a.Verdicts.Signal(id)
			return s.Done, ok
		}, unconfirmed: func(a agent.Attempt) bool {
			s, _ := a.Verdicts.Signal(id)
			return s.Unconfirmed != ""
		}})
	}
	return append(cols, column{id: agent.GateID, label: "completion gate", done: func(a agent.Attempt) (bool, bool) { return a.Verdicts.Gate.Done, true }})
}

// printTable writes the attempts table: the ground truth, then every other way of deciding,
// each marked when it disagrees with the ground truth, then the terminal state. A call that
// could not be made reads "could not confirm"; the WRONG line counts of the attempts whose
// ground truth made its call, as nothing is wrong against an unknown truth.
func printTable(w io.Writer, attempts []agent.Attempt) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	cols := columns(attempts)
	head := []string{"ATTEMPT"}
	for _, c := range cols {
		head = append(head, safe(strings.ToUpper(c.label)))
	}
	fmt.Fprintln(tw, strings.Join(append(head, "TERMINAL"), "\t"))
	wrongBy := map[string]int{}
	known := 0
	for _, a := range attempts {
		wrong := a.Verdicts.Wrong()
		if a.Verdicts.TruthKnown() {
			known++
		}
		row := []string{safe(a.Slug)}
		for i, c := range cols {
			done, ok := c.done(a)
			switch {
			case !ok:
				row = append(row, "-")
			case c.unconfirmed != nil && c.unconfirmed(a):
				row = append(row, unconfirmedCell)
			case i == 0:
				row = append(row, yesNo(done))
			default:
				cell := "not done"
				if done {
					cell = "done"
				}
				if slices.Contains(wrong, c.id) {
					cell += " (wrong)"
					wrongBy[c.id]++
				}
				row = append(row, cell)
			}
		}
		fmt.Fprintln(tw, strings.Join(append(row, safe(a.Terminal)), "\t"))
	}
	foot := []string{"WRONG", ""}
	for _, c := range cols[1:] {
		foot = append(foot, fmt.Sprintf("%d of %d", wrongBy[c.id], known))
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
// signal by ID and the gate as booleans (null for a call that could not be confirmed), then
// the full verdicts with their evidence.
type jsonRow struct {
	Attempt string `json:"attempt"`
	// Trial is which repetition of its attempt the row is (run --repeat); absent otherwise.
	Trial   int              `json:"trial,omitempty"`
	Title   string           `json:"title"`
	Truth   *bool            `json:"truth"`
	Signals map[string]*bool `json:"signals"`
	Gate    bool             `json:"gate"`
	// Terminal is how the attempt ended, and Reason why.
	Terminal agent.Terminal `json:"terminal"`
	Reason   string         `json:"reason"`
	Wrong    []string       `json:"wrong"`
	Verdicts agent.Verdicts `json:"verdicts"`
}

func jsonRows(attempts []agent.Attempt) []jsonRow {
	rows := make([]jsonRow, 0, len(attempts))
	for _, a := range attempts {
		v := a.Verdicts
		wrong := append([]string{}, v.Wrong()...)
		sigs := make(map[string]*bool, len(v.Signals))
		for _, s := range v.Signals {
			sigs[s.ID] = call(s.Verdict)
		}
		rows = append(rows, jsonRow{Attempt: a.Slug, Trial: a.Trial, Title: a.Title, Truth: call(v.Truth.Verdict), Signals: sigs,
			Gate: v.Gate.Done, Terminal: a.Terminal, Reason: a.Reason, Wrong: wrong, Verdicts: v})
	}
	return rows
}

// call is a verdict's call, nil when it could not be confirmed.
func call(v agent.Verdict) *bool {
	if v.Unconfirmed != "" {
		return nil
	}
	return &v.Done
}

// slugList renders attempt slugs for messages.
func slugList(specs []agent.AttemptSpec) string {
	s := make([]string, len(specs))
	for i, a := range specs {
		s[i] = a.Slug
	}
	return strings.Join(s, ", ")
}
