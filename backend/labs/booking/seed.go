package booking

import (
	"errors"
	"fmt"

	"observatory/backend/agent"
)

// Row is one row of the seed's table: the ground truth, the notice and Parallax signals, the
// gate, and the terminal state an attempt ends in.
type Row struct {
	Saved, Notice, Parallax, Gate bool
	Terminal                      agent.Terminal
}

// SeedTable is the seed's table of the eight attempts, as real runs produce it: the
// regression anchor that end-to-end tests and benchmarks hold every change to.
var SeedTable = map[string]Row{
	"saves-normally":           {true, true, true, true, agent.Completed},
	"notice-nothing-saved":     {false, true, true, false, agent.Failed},
	"wrong-room":               {false, true, true, false, agent.Failed},
	"save-refused":             {false, false, true, false, agent.Rejected},
	"fixed-wait-slow-save":     {false, false, true, false, agent.Failed},
	"renamed-button-exact":     {false, false, false, false, agent.Failed},
	"slow-save-condition-wait": {true, true, true, true, agent.Completed},
	"renamed-button-alias":     {true, true, true, true, agent.Completed},
}

// RowOf is the row an attempt's verdicts and terminal state make.
func RowOf(a agent.Attempt) Row {
	v := a.Verdicts
	notice, _ := v.Signal(SignalNotice)
	parallax, _ := v.Signal(SignalParallax)
	return Row{Saved: v.Truth.Done, Notice: notice.Done, Parallax: parallax.Done, Gate: v.Gate.Done, Terminal: a.Terminal}
}

// CheckTable says how attempts differ from the seed's table: a missing or unexpected
// attempt, one out of the lab's order, or one whose row differs. Nil means identical.
func CheckTable(attempts []agent.Attempt) error {
	var errs []error
	order := New().Attempts()
	if len(attempts) != len(order) {
		errs = append(errs, fmt.Errorf("%d attempts, want %d", len(attempts), len(order)))
	}
	for i, a := range attempts {
		if i < len(order) && a.Slug != order[i].Slug {
			errs = append(errs, fmt.Errorf("attempt %d is %s, want %s", i, a.Slug, order[i].Slug))
		}
		want, ok := SeedTable[a.Slug]
		if got := RowOf(a); !ok || got != want {
			errs = append(errs, fmt.Errorf("%s: %+v (%s), want %+v", a.Slug, got, a.Reason, want))
		}
	}
	return errors.Join(errs...)
}
