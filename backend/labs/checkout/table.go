package checkout

import (
	"fmt"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// Row is one row of the lab's table: what the same plan ordered with the harness off (the
// naive executor) and on, and the terminal state the harnessed attempt ends in.
type Row struct {
	Naive, Harnessed Placed
	Terminal         agent.Terminal
}

// Table is the lab's table as real runs in Chromium produce it. End-to-end tests hold every
// change to it.
var Table = map[string]Row{
	"pays-normally":    {Placed{Alice: 1}, Placed{Alice: 1}, agent.Completed},
	"price-changed":    {Placed{Alice: 1, OtherPrice: 1}, Placed{}, agent.Rejected},
	"account-switched": {Placed{Bob: 1}, Placed{}, agent.Rejected},
	"harmless-banner":  {Placed{Alice: 1}, Placed{Alice: 1}, agent.Completed},
	"renamed-pay":      {Placed{}, Placed{}, agent.Failed},
}

// PlacedBy counts what an attempt ordered, from its recorded events.
func PlacedBy(a agent.Attempt) (Placed, error) {
	s, err := Rebuild(a.Events)
	if err != nil {
		return Placed{}, fmt.Errorf("%s: %w", a.Slug, err)
	}
	return PlacedOf(s, Requested), nil
}

// RowOf is the row the same attempt makes with the harness off (naive) and on.
func RowOf(naive, harnessed agent.Attempt) (Row, error) {
	n, h, err := labkit.Measured(PlacedBy, naive, harnessed)
	return Row{n, h, harnessed.Terminal}, err
}

// CheckTable says how a naive and a harnessed run of the lab's attempts differ from Table:
// a missing attempt, or a row that differs. Nil means identical.
func CheckTable(naive, harnessed []agent.Attempt) error {
	return labkit.CheckTable(New().Attempts(), naive, harnessed, Table, RowOf)
}
