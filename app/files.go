package app

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"observatory/backend/bundle"
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
var ErrNoDialogs = errors.New("native file dialogs exist only in the desktop app; in a browser, download and upload instead")

// ImportResult says what an import stored and where the file's recorded verdicts were wrong.
type ImportResult struct {
	RunID         string                 `json:"run_id"`
	Disagreements []runfile.Disagreement `json:"disagreements"`
}

// Files moves runs in and out: as run files (JSON), or as bundles (a zip of the run file
// and its videos and screenshots).
type Files struct {
	store     *store.Store
	dialogs   Dialogs
	mediaRoot string
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

// ExportDialog asks where to save a run's file and writes it there; "" when cancelled.
func (f *Files) ExportDialog(id string) (string, error) {
	return f.exportDialog(id, "Export run file", ".json")
}

// ExportBundleDialog asks where to save a run's bundle (.zip with its media) and writes it
// there; "" when cancelled.
func (f *Files) ExportBundleDialog(id string) (string, error) {
	return f.exportDialog(id, "Export bundle with media", ".zip")
}

func (f *Files) exportDialog(id, title, ext string) (string, error) {
	if f.dialogs == nil {
		return "", ErrNoDialogs
	}
	path, err := f.dialogs.SaveFile(title, "observatory-run-"+id+ext)
	if err != nil || path == "" {
		return "", err
	}
	_, err = f.ExportFile(id, path)
	return path, err
}

// ExportFile writes a stored run to path: a bundle with its media when path ends in .zip,
// otherwise a run file. It writes through a temporary file, so a failure leaves nothing
// half-written, and returns the media a bundle left out because the disk no longer has them.
func (f *Files) ExportFile(id, path string) (missing []string, err error) {
	run, err := f.store.Get(id)
	if err != nil {
		return nil, err
	}
	err = writeAtomically(path, func(w io.Writer) error {
		if !strings.HasSuffix(path, ".zip") {
			return runfile.Encode(w, run)
		}
		missing, err = bundle.Export(w, run, filepath.Join(f.mediaRoot, run.ID))
		return err
	})
	return missing, err
}

// WriteBundle writes the bundle of a stored run to w. Media files the run names but the disk
// no longer has are left out.
func (f *Files) WriteBundle(w io.Writer, id string) error {
	run, err := f.store.Get(id)
	if err != nil {
		return err
	}
	_, err = bundle.Export(w, run, filepath.Join(f.mediaRoot, run.ID))
	return err
}

// ImportDialog asks for a run file or bundle and imports it; an empty RunID means the user
// cancelled.
func (f *Files) ImportDialog() (ImportResult, error) {
	if f.dialogs == nil {
		return ImportResult{}, ErrNoDialogs
	}
	path, err := f.dialogs.OpenFile("Import a run file or bundle")
	if err != nil || path == "" {
		return ImportResult{}, err
	}
	return f.ImportFile(path)
}

// ImportFile imports the run file or bundle at path, telling them apart by content, and
// reading no more than their size limits allow.
func (f *Files) ImportFile(path string) (ImportResult, error) {
	return f.importFile(path, filepath.Base(path))
}

func (f *Files) importFile(path, name string) (ImportResult, error) {
	file, err := os.Open(path)
	if err != nil {
		return ImportResult{}, fmt.Errorf("opening %s: %w", name, err)
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return ImportResult{}, err
	}
	var res runfile.Result
	if isZip(file) {
		res, err = bundle.Import(labs.Get, f.store, f.mediaRoot, name, file, info.Size())
	} else {
		res, err = runfile.Import(labs.Get, f.store, name, file)
	}
	if err != nil {
		return ImportResult{}, err
	}
	return ImportResult{RunID: res.Run.ID, Disagreements: res.Disagreements}, nil
}

// ImportUpload imports a run file or bundle whose bytes arrive on r (the HTTP transport's
// upload), spooling them to a temporary file of at most bundle.MaxBundleBytes.
func (f *Files) ImportUpload(name string, r io.Reader) (ImportResult, error) {
	tmp, err := os.CreateTemp("", "observatory-import-*")
	if err != nil {
		return ImportResult{}, err
	}
	defer os.Remove(tmp.Name())
	n, err := io.Copy(tmp, io.LimitReader(r, bundle.MaxBundleBytes+1))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return ImportResult{}, fmt.Errorf("receiving %s: %w", name, err)
	}
	if n > bundle.MaxBundleBytes {
		return ImportResult{}, fmt.Errorf("%s is larger than %d MiB, the most a bundle may be", name, bundle.MaxBundleBytes>>20)
	}
	return f.importFile(tmp.Name(), name)
}

// isZip reports whether r starts with a zip signature, leaving r at its start.
func isZip(r io.ReadSeeker) bool {
	var sig [4]byte
	_, err := io.ReadFull(r, sig[:])
	_, _ = r.Seek(0, io.SeekStart)
	return err == nil && string(sig[:]) == "PK\x03\x04"
}

// writeAtomically writes through a temporary file renamed into place, so a failed export
// leaves no half-written file.
func writeAtomically(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o644); err != nil { // a file to share, not a private temp file
		tmp.Close()
		return err
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return os.Rename(tmp.Name(), path)
}
