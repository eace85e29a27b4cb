package app

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"observatory/app/apierror"
	"observatory/app/version"
	"observatory/backend/har"
	"observatory/backend/ledger"
	"observatory/backend/report"
	"observatory/backend/runfile"
)

// ExportFormat names a way to export a stored run, or one attempt of it.
type ExportFormat string

// The export formats, each one row of exportFormats.
const (
	// FormatRun is the run file (JSON), which import and verify read back.
	FormatRun ExportFormat = "run"
	// FormatBundle is a zip of the run file with the run's videos and screenshots.
	FormatBundle ExportFormat = "bundle"
	// FormatReport is one self-contained HTML page that runs no script.
	FormatReport ExportFormat = "report"
	// FormatHAR is one attempt's recorded network requests as a HAR 1.2 file.
	FormatHAR ExportFormat = "har"
	// FormatLedger is one attempt's action ledger as CSV.
	FormatLedger ExportFormat = "ledger"
)

// exportFormat is how one format is written and offered.
type exportFormat struct {
	// title is the save dialog's.
	title string
	// attempt says the format holds one attempt, named by its slug.
	attempt bool
	// binary says the format has no text form: a browser downloads it from a URL of its
	// own (the bundle's /bundle/<id>) instead of through Files.Export.
	binary bool
	// name is the file name the save dialog suggests.
	name  func(id, slug string) string
	write func(t *Transfer, w io.Writer, id, slug string) error
}

// exportFormats is every format a run exports to; the UI's services, the transports and the
// command line all export through it.
var exportFormats = map[ExportFormat]exportFormat{
	FormatRun: {title: "Export run file", name: runName("observatory-run-", ".json"),
		write: func(t *Transfer, w io.Writer, id, _ string) error {
			run, err := t.store.Get(id)
			if err != nil {
				return err
			}
			return runfile.Encode(w, run)
		}},
	FormatBundle: {title: "Export bundle with media", binary: true, name: runName("observatory-run-", ".zip"),
		write: func(t *Transfer, w io.Writer, id, _ string) error { return t.WriteBundle(w, id) }},
	FormatReport: {title: "Export report", name: runName("observatory-report-", ".html"),
		write: func(t *Transfer, w io.Writer, id, _ string) error {
			run, err := t.store.Get(id)
			if err != nil {
				return err
			}
			return report.Write(w, run, filepath.Join(t.mediaRoot, run.ID))
		}},
	FormatHAR: {title: "Export HAR", attempt: true, name: attemptName("observatory-", ".har"),
		write: func(t *Transfer, w io.Writer, id, slug string) error {
			a, err := attemptOf(t.store, id, slug)
			if err != nil {
				return err
			}
			return har.Write(w, a, har.Creator{Name: "Observatory", Version: version.Get().Version})
		}},
	FormatLedger: {title: "Export the action ledger", attempt: true, name: attemptName("observatory-ledger-", ".csv"),
		write: func(t *Transfer, w io.Writer, id, slug string) error {
			a, err := attemptOf(t.store, id, slug)
			if err != nil {
				return err
			}
			return ledger.WriteCSV(w, ledger.Of(a))
		}},
}

// runName and attemptName make the file names a save dialog suggests.
func runName(prefix, ext string) func(id, slug string) string {
	return func(id, _ string) string { return prefix + id + ext }
}

func attemptName(prefix, ext string) func(id, slug string) string {
	return func(id, slug string) string { return prefix + id + "-" + slug + ext }
}

// formatOf finds format's row, and checks that an attempt is named where the format holds
// one and only there.
func formatOf(format ExportFormat, slug string) (exportFormat, error) {
	f, ok := exportFormats[format]
	if !ok {
		var known []string
		for k := range exportFormats {
			known = append(known, string(k))
		}
		sort.Strings(known)
		return f, invalidArg("format", fmt.Sprintf("no export format %q; there are %s", format, strings.Join(known, ", ")))
	}
	if f.attempt && slug == "" {
		return f, invalidArg("slug", fmt.Sprintf("a %s export holds one attempt: name it", format))
	}
	if !f.attempt && slug != "" {
		return f, invalidArg("slug", fmt.Sprintf("a %s export holds the whole run, not attempt %q", format, slug))
	}
	return f, nil
}

// invalidArg refuses the argument called path.
func invalidArg(path, message string) error {
	return &apierror.Error{Kind: apierror.Invalid, Message: message, Path: path}
}

// Export writes run id (its attempt slug, for the formats that hold one attempt) to w in
// format.
func (t *Transfer) Export(w io.Writer, format ExportFormat, id, slug string) error {
	f, err := formatOf(format, slug)
	if err != nil {
		return err
	}
	return f.write(t, w, id, slug)
}

// ExportTo writes the export to path through a temporary file, so a failure leaves nothing
// half-written.
func (t *Transfer) ExportTo(format ExportFormat, id, slug, path string) error {
	if _, err := formatOf(format, slug); err != nil {
		return err
	}
	return writeAtomically(path, func(w io.Writer) error { return t.Export(w, format, id, slug) })
}

// Export returns run id (its attempt slug, for the formats that hold one attempt) as text in
// format (an ExportFormat), for a browser to download; the bundle, which is no text, is
// refused. The bound methods take the format as a plain string, which Wails' generated
// contract can name.
func (f *Files) Export(format, id, slug string) (string, error) {
	if row, ok := exportFormats[ExportFormat(format)]; ok && row.binary {
		return "", invalidArg("format", fmt.Sprintf("a %s is no text: a browser downloads it from /bundle/<id>", format))
	}
	var b strings.Builder
	if err := f.transfer.Export(&b, ExportFormat(format), id, slug); err != nil {
		return "", err
	}
	return b.String(), nil
}

// ExportDialog asks where to save the export and writes it there; "" when cancelled.
func (f *Files) ExportDialog(format, id, slug string) (string, error) {
	row, err := formatOf(ExportFormat(format), slug)
	if err != nil {
		return "", err
	}
	if f.dialogs == nil {
		return "", ErrNoDialogs
	}
	path, err := f.dialogs.SaveFile(row.title, row.name(id, slug))
	if err != nil || path == "" {
		return "", err
	}
	return path, f.transfer.ExportTo(ExportFormat(format), id, slug, path)
}
