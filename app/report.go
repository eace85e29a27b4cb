package app

import (
	"io"
	"path/filepath"
	"strings"

	"observatory/backend/report"
)

// WriteReport writes the HTML report of stored run id to w: one self-contained file with its
// screenshots inlined, that runs no script (see backend/report).
func (t *Transfer) WriteReport(w io.Writer, id string) error {
	run, err := t.store.Get(id)
	if err != nil {
		return err
	}
	return report.Write(w, run, filepath.Join(t.mediaRoot, run.ID))
}

// ExportReport writes the HTML report of run id to path, atomically.
func (t *Transfer) ExportReport(id, path string) error {
	return writeAtomically(path, func(w io.Writer) error { return t.WriteReport(w, id) })
}

// ExportReport returns the HTML report of a stored run, for a browser to download.
func (f *Files) ExportReport(id string) (string, error) {
	var b strings.Builder
	if err := f.transfer.WriteReport(&b, id); err != nil {
		return "", err
	}
	return b.String(), nil
}

// ExportReportDialog asks where to save a run's HTML report and writes it there; "" when
// cancelled.
func (f *Files) ExportReportDialog(id string) (string, error) {
	if f.dialogs == nil {
		return "", ErrNoDialogs
	}
	path, err := f.dialogs.SaveFile("Export report", "observatory-report-"+id+".html")
	if err != nil || path == "" {
		return "", err
	}
	return path, f.transfer.ExportReport(id, path)
}
