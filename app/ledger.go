package app

import (
	"io"
	"strings"

	"observatory/backend/agent"
	"observatory/backend/ledger"
	"observatory/backend/store"
)

// attemptOf reads attempt slug of stored run id, whole.
func attemptOf(st *store.Store, id, slug string) (agent.Attempt, error) {
	run, err := st.Attempt(id, slug)
	if err != nil {
		return agent.Attempt{}, err
	}
	return run.Attempts[0], nil
}

// Ledger is the action ledger of attempt slug of run id, one entry per step (see
// backend/ledger).
func (r *Runs) Ledger(id, slug string) ([]ledger.Entry, error) {
	a, err := attemptOf(r.store, id, slug)
	if err != nil {
		return nil, err
	}
	return ledger.Of(a), nil
}

// WriteLedger writes the action ledger of attempt slug of run id to w as CSV.
func (t *Transfer) WriteLedger(w io.Writer, id, slug string) error {
	a, err := attemptOf(t.store, id, slug)
	if err != nil {
		return err
	}
	return ledger.WriteCSV(w, ledger.Of(a))
}

// ExportLedger writes the action ledger of attempt slug of run id to path as CSV, atomically.
func (t *Transfer) ExportLedger(id, slug, path string) error {
	return writeAtomically(path, func(w io.Writer) error { return t.WriteLedger(w, id, slug) })
}

// ExportLedger returns the action ledger of an attempt as CSV, for a browser to download.
func (f *Files) ExportLedger(id, slug string) (string, error) {
	var b strings.Builder
	if err := f.transfer.WriteLedger(&b, id, slug); err != nil {
		return "", err
	}
	return b.String(), nil
}

// ExportLedgerDialog asks where to save an attempt's action ledger and writes it there as
// CSV; "" when cancelled.
func (f *Files) ExportLedgerDialog(id, slug string) (string, error) {
	if f.dialogs == nil {
		return "", ErrNoDialogs
	}
	path, err := f.dialogs.SaveFile("Export the action ledger", "observatory-ledger-"+id+"-"+slug+".csv")
	if err != nil || path == "" {
		return "", err
	}
	return path, f.transfer.ExportLedger(id, slug, path)
}
