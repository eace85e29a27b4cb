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

// printTable writes the attempts table of the seed: ground truth, then the three ways of
// deciding, each marked when it disagrees with the ground truth, then the terminal state.
func printTable(w io.Writer, attempts []agent.Attempt) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ATTEMPT\tSAVED AS ASKED\tSUCCESS NOTICE\tPARALLAX\tCOMPLETION GATE\tTERMINAL")
	wrongBy := map[string]int{}
	for _, a := range attempts {
		v := a.Verdicts
		wrong := v.Wrong()
		for _, n := range wrong {
			wrongBy[n]++
		}
		cell := func(name string, done bool) string {
			s := "not done"
			if done {
				s = "done"
			}
			if slices.Contains(wrong, name) {
				s += " (wrong)"
			}
			return s
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", safe(a.Slug), yesNo(v.SavedAsAsked.Done),
			cell("notice", v.Notice.Done), cell("parallax", v.Parallax.Done), cell("gate", v.Gate.Done), safe(a.Terminal))
	}
	n := len(attempts)
	fmt.Fprintf(tw, "WRONG\t\t%d of %d\t%d of %d\t%d of %d\t\n", wrongBy["notice"], n, wrongBy["parallax"], n, wrongBy["gate"], n)
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

// jsonRow is one attempt in `run --json` and `verify --json` output.
type jsonRow struct {
	Attempt      string         `json:"attempt"`
	Title        string         `json:"title"`
	SavedAsAsked bool           `json:"saved_as_asked"`
	Notice       bool           `json:"notice"`
	Parallax     bool           `json:"parallax"`
	Gate         bool           `json:"gate"`
	Terminal     agent.Terminal `json:"terminal"`
	Reason       string         `json:"reason"`
	Wrong        []string       `json:"wrong"`
	Verdicts     agent.Verdicts `json:"verdicts"`
}

func jsonRows(attempts []agent.Attempt) []jsonRow {
	rows := make([]jsonRow, 0, len(attempts))
	for _, a := range attempts {
		v := a.Verdicts
		wrong := v.Wrong()
		if wrong == nil {
			wrong = []string{}
		}
		rows = append(rows, jsonRow{Attempt: a.Slug, Title: a.Title, SavedAsAsked: v.SavedAsAsked.Done, Notice: v.Notice.Done,
			Parallax: v.Parallax.Done, Gate: v.Gate.Done, Terminal: a.Terminal, Reason: a.Reason, Wrong: wrong, Verdicts: v})
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
