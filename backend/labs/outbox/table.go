package outbox

import (
	"fmt"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// Row is one row of the lab's table: what the same plan sent with the harness off (the
// naive executor) and on, and the terminal state the harnessed attempt ends in.
type Row struct {
	Naive, Harnessed Sent
	Terminal         agent.Terminal
}

// Table is the lab's table as real runs in Chromium produce it: the rows, and
// delivered-twice. End-to-end tests hold every change to it.
var Table = map[string]Row{
	"sends-normally":                   {Sent{1, 0}, Sent{1, 0}, agent.Completed},
	"lost-response-after-commit":       {Sent{2, 0}, Sent{1, 0}, agent.Completed},
	"dropped-before-commit":            {Sent{1, 0}, Sent{1, 0}, agent.Completed},
	"send-clicked-twice":               {Sent{2, 0}, Sent{1, 0}, agent.Completed},
	"review-caution":                   {Sent{1, 0}, Sent{0, 0}, agent.Rejected},
	"reviewer-unavailable":             {Sent{1, 0}, Sent{0, 0}, agent.Rejected},
	"approval-denied":                  {Sent{1, 0}, Sent{0, 0}, agent.Rejected},
	"approval-timeout":                 {Sent{1, 0}, Sent{0, 0}, agent.Rejected},
	"recipient-changed-after-approval": {Sent{1, 1}, Sent{0, 0}, agent.Rejected},
	"delivered-twice":                  {Sent{3, 0}, Sent{2, 0}, agent.Failed},
}

// SentBy counts what an attempt sent, from its recorded events.
func SentBy(a agent.Attempt) (Sent, error) {
	s, err := Rebuild(a.Events)
	if err != nil {
		return Sent{}, fmt.Errorf("%s: %w", a.Slug, err)
	}
	return SentOf(s, Requested), nil
}

// RowOf is the row the same attempt makes with the harness off (naive) and on.
func RowOf(naive, harnessed agent.Attempt) (Row, error) {
	n, h, err := labkit.Measured(SentBy, naive, harnessed)
	return Row{n, h, harnessed.Terminal}, err
}

// CheckTable says how a naive and a harnessed run of the lab's attempts differ from Table:
// a missing attempt, or a row that differs. Nil means identical.
func CheckTable(naive, harnessed []agent.Attempt) error {
	return labkit.CheckTable(New().Attempts(), naive, harnessed, Table, RowOf)
}
