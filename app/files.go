package app

import (
	"context"
	"io"
	"os"

	"observatory/app/apierror"
	"observatory/backend/store"
)

// Dialogs are the desktop's native file dialogs. An empty path means the user cancelled.
type Dialogs interface {
	SaveFile(title, defaultName string) (string, error)
	// OpenFile asks for a file to open, offering those filter matches.
	OpenFile(title string, filter FileFilter) (string, error)
}

// FileFilter is what an open dialog offers: a name the user reads, and the patterns of the
// files it shows, separated by semicolons ("*.json;*.zip").
type FileFilter struct {
	DisplayName string
	Pattern     string
}

// RunFiles is what the open dialog for run files and bundles offers.
var RunFiles = FileFilter{DisplayName: "Run files and bundles (*.json, *.zip)", Pattern: "*.json;*.zip"}

// ErrNoDialogs is returned by the dialog methods outside the desktop.
var ErrNoDialogs = apierror.New(apierror.Unavailable, "native file dialogs exist only in the desktop app; in a browser, download and upload instead")

// Files is what the UI may do with files: get a run's file as text, and, in the desktop,
// export and import through native dialogs, where the user picks every path. The path-taking
// work is Transfer's.
type Files struct {
	store    *store.Store
	dialogs  Dialogs
	transfer *Transfer
}

// SaveMediaDialog asks where to save one of a run's media files (its Playwright trace, say)
// and copies it there; "" when cancelled. name must be a media file the run names.
func (f *Files) SaveMediaDialog(id, name string) (string, error) {
	if f.dialogs == nil {
		return "", ErrNoDialogs
	}
	src, err := f.transfer.MediaPath(id, name)
	if err != nil {
		return "", err
	}
	path, err := f.dialogs.SaveFile("Save "+name, name)
	if err != nil || path == "" {
		return "", err
	}
	return path, writeAtomically(path, func(w io.Writer) error {
		in, err := os.Open(src)
		if err != nil {
			return err
		}
		defer in.Close()
		_, err = io.Copy(w, in)
		return err
	})
}

// ImportDialog asks for a run file or bundle and imports it; an empty RunID means the user
// cancelled.
func (f *Files) ImportDialog() (ImportResult, error) {
	if f.dialogs == nil {
		return ImportResult{}, ErrNoDialogs
	}
	path, err := f.dialogs.OpenFile("Import a run file or bundle", RunFiles)
	if err != nil || path == "" {
		return ImportResult{}, err
	}
	return f.transfer.ImportFile(context.Background(), path)
}
