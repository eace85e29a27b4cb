package canvas

import (
	"fmt"
	"strings"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// Seen is what one run of an attempt shows: whether every action reported success, whether
// the knight really moved, whether a step's result flagged the board as unreadable, and how
// the accessible-mode toggle was pressed ("" when it never was).
type Seen struct {
	Reported, Moved, Flagged bool
	Via                      string
}

// Row is one row of the lab's table: the same plan with the harness off (naive) and on, and
// the terminal state the harnessed attempt ends in.
type Row struct {
	Naive, Harnessed Seen
	Terminal         agent.Terminal
}

// Table is the lab's table as real runs in Chromium produce it. The blind click reports
// success and moves nothing; only the harness says the board cannot be read. The toggle,
// off-screen or clipped, is pressed from the keyboard with the harness on or off: the
// browser adapter never clicks empty space.
var Table = map[string]Row{
	"clicks-the-board": {Seen{true, false, false, ""}, Seen{true, false, true, ""}, agent.Failed},
	"toggle-offscreen": {Seen{true, true, false, ViaKeyboard}, Seen{true, true, true, ViaKeyboard}, agent.Completed},
	"toggle-clipped":   {Seen{true, true, false, ViaKeyboard}, Seen{true, true, true, ViaKeyboard}, agent.Completed},
}

// SeenIn is what an attempt shows, from its recorded events and steps.
func SeenIn(a agent.Attempt) (Seen, error) {
	s, err := Rebuild(a.Events)
	if err != nil {
		return Seen{}, fmt.Errorf("%s: %w", a.Slug, err)
	}
	seen := Seen{Reported: Reported(a.Steps).Verdict.Done, Moved: MovedAsAsked(s).Done, Via: s.Via}
	for _, st := range a.Steps {
		seen.Flagged = seen.Flagged || flags(st)
	}
	return seen, nil
}

// flags reports whether a step's result told the planner the board cannot be read.
func flags(s agent.Step) bool {
	for _, r := range s.After.Unreadable {
		if strings.Contains(s.Guidance, r.What) {
			return true
		}
	}
	return false
}

// rowOf is the row the same attempt makes with the harness off (naive) and on.
func rowOf(naive, harnessed agent.Attempt) (Row, error) {
	n, h, err := labkit.Measured(SeenIn, naive, harnessed)
	return Row{n, h, harnessed.Terminal}, err
}

// CheckTable says how a naive and a harnessed run of the lab's attempts differ from Table:
// a missing attempt, or a row that differs. Nil means identical.
func CheckTable(naive, harnessed []agent.Attempt) error {
	return labkit.CheckTable(New().Attempts(), naive, harnessed, Table, rowOf)
}
