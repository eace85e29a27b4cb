package app

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"observatory/app/version"
	"observatory/backend/agent"
	"observatory/backend/har"
)

// WriteHAR writes the network requests of attempt slug of stored run id to w as a HAR 1.2
// file (see backend/har).
func (t *Transfer) WriteHAR(w io.Writer, id, slug string) error {
	run, err := t.store.Get(id)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(run.Attempts, func(a agent.Attempt) bool { return a.Slug == slug })
	if i < 0 {
		slugs := make([]string, len(run.Attempts))
		for j, a := range run.Attempts {
			slugs[j] = a.Slug
		}
		return fmt.Errorf("run %s has no attempt %q: it has %s", run.ID, slug, strings.Join(slugs, ", "))
	}
	return har.Write(w, run.Attempts[i], har.Creator{Name: "Observatory", Version: version.Get().Version})
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
