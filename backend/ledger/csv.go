package ledger

import (
	"encoding/csv"
	"io"
	"strconv"
)

// Header is the CSV's first row, one column per Entry field.
var Header = []string{"step", "intent", "action", "target", "principal", "observed_ms", "fingerprint",
	"class", "risk", "decision", "reason", "result", "verification"}

// WriteCSV writes entries as CSV with Header first. A cell that a spreadsheet would read as a
// formula (starting with =, +, - or @) is prefixed with a quote, since page text reaches it.
func WriteCSV(w io.Writer, entries []Entry) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(Header); err != nil {
		return err
	}
	for _, e := range entries {
		row := []string{strconv.Itoa(e.Step), e.Intent, e.Action, e.Target, e.Principal, strconv.FormatInt(e.ObservedMS, 10),
			e.Fingerprint, e.Class, e.Risk, e.Decision, e.Reason, e.Result, e.Verification}
		for i := range row {
			row[i] = defuse(row[i])
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// defuse keeps a cell from being read as a formula.
func defuse(cell string) string {
	if cell != "" && (cell[0] == '=' || cell[0] == '+' || cell[0] == '-' || cell[0] == '@') {
		return "'" + cell
	}
	return cell
}
