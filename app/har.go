package app

import (
	"io"
	"strings"

	"observatory/app/version"
	"observatory/backend/har"
)

// WriteHAR writes the network requests of attempt slug of stored run id to w as a HAR 1.2
// file (see backend/har).
func (t *Transfer) WriteHAR(w io.Writer, id, slug string) error {
	a, err := attemptOf(t.store, id, slug)
	if err != nil {
		return err
	}
	return har.Write(w, a, har.Creator{Name: "Observatory", Version: version.Get().Version})
}

// ExportHAR writes the HAR file of attempt slug of run id to path, atomically.
func (t *Transfer) ExportHAR(id, slug, path string) error {
	return writeAtomically(path, func(w io.Writer) error { return t.WriteHAR(w, id, slug) })
}

// ExportHAR returns the HAR file of attempt slug of a stored run, for a browser to download.
func (f *Files) ExportHAR(id, slug string) (string, error) {
	var b strings.Builder
	if err := f.transfer.WriteHAR(&b, id, slug); err != nil {
		return "", err
	}
	return b.String(), nil
}

// ExportHARDialog asks where to save the HAR file of attempt slug of run id and writes it
// there; "" when cancelled.
func (f *Files) ExportHARDialog(id, slug string) (string, error) {
	if f.dialogs == nil {
		return "", ErrNoDialogs
	}
	path, err := f.dialogs.SaveFile("Export HAR", harName(id, slug))
	if err != nil || path == "" {
		return "", err
	}
	return path, f.transfer.ExportHAR(id, slug, path)
}

// harName is the file name a HAR export suggests.
func harName(id, slug string) string { return "observatory-" + id + "-" + slug + ".har" }
