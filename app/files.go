package app

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"observatory/backend/labs"
	"observatory/backend/runfile"
	"observatory/backend/store"
)

// Dialogs are the desktop's native file dialogs. An empty path means the user cancelled.
type Dialogs interface {
	SaveFile(title, defaultName string) (string, error)
	OpenFile(title string) (string, error)
}

// ErrNoDialogs is returned by the dialog methods outside the desktop.
var ErrNoDialogs = errors.New("native file dialogs exist only in the desktop app; use ExportJSON and ImportJSON")

// ImportResult says what an import stored and where the file's recorded verdicts were wrong.
type ImportResult struct {
	RunID         string                 `json:"run_id"`
	Disagreements []runfile.Disagreement `json:"disagreements"`
}

// Files moves runs in and out as run files.
type Files struct {
	store   *store.Store
	dialogs Dialogs
}

// ExportJSON returns the run file of a stored run.
func (f *Files) ExportJSON(id string) (string, error) {
	run, err := f.store.Get(id)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := runfile.Encode(&b, run); err != nil {
		return "", err
	}
	return b.String(), nil
}

// ImportJSON checks a run file, replays it, recomputes every verdict and stores it as an
// imported run. A refused file stores nothing; the error says what is wrong and where.
func (f *Files) ImportJSON(name, content string) (ImportResult, error) {
	if len(content) > runfile.MaxBytes {
		return ImportResult{}, fmt.Errorf("%s is %d bytes; run files are at most %d", name, len(content), runfile.MaxBytes)
	}
	res, err := runfile.Import(labs.Get, f.store, name, strings.NewReader(content))
	if err != nil {
		return ImportResult{}, err
	}
	return ImportResult{RunID: res.Run.ID, Disagreements: res.Disagreements}, nil
}

// ExportDialog asks where to save a run's file and writes it there; "" when cancelled.
func (f *Files) ExportDialog(id string) (string, error) {
	if f.dialogs == nil {
		return "", ErrNoDialogs
	}
	text, err := f.ExportJSON(id)
	if err != nil {
		return "", err
	}
	path, err := f.dialogs.SaveFile("Export run", "observatory-run-"+id+".json")
	if err != nil || path == "" {
		return "", err
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	return path, nil
}

// ImportDialog asks for a run file and imports it; an empty RunID means the user cancelled.
func (f *Files) ImportDialog() (ImportResult, error) {
	if f.dialogs == nil {
		return ImportResult{}, ErrNoDialogs
	}
	path, err := f.dialogs.OpenFile("Import run file")
	if err != nil || path == "" {
		return ImportResult{}, err
	}
	return f.ImportFile(path)
}

// ImportFile imports the run file at path, reading no more than the size limit allows.
func (f *Files) ImportFile(path string) (ImportResult, error) {
	file, err := os.Open(path)
	if err != nil {
		return ImportResult{}, fmt.Errorf("opening the run file: %w", err)
	}
	defer file.Close()
	res, err := runfile.Import(labs.Get, f.store, filepath.Base(path), file)
	if err != nil {
		return ImportResult{}, err
	}
	return ImportResult{RunID: res.Run.ID, Disagreements: res.Disagreements}, nil
}
