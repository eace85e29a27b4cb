package bundle

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"observatory/backend/agent"
	"observatory/backend/runfile"
	"observatory/backend/scratch"
)

// ImportPrefix starts the name of the temporary folder, in the media root, that an import
// extracts a bundle's media into, and moves to the run's id once the run is stored. A
// process killed meanwhile leaves it behind, held by nobody: Settle says what a sweep does
// with it.
const ImportPrefix = ".import-"

// runMarker is the file in an import's temporary folder that names the run its media are
// for, so that a sweep can finish an import killed after it stored the run. No media name
// starts with a dot, so it never clashes with one.
const runMarker = ".run-id"

// mediaSaver is the runfile.Saver Import hands to runfile.Import: once the run file is
// accepted it checks the media against the run, extracts them, saves the run through next,
// and only then moves the media into place under the run's id. What a kill at any moment
// leaves, a sweep settles (see Settle): either the run with all its media, or neither.
type mediaSaver struct {
	next  runfile.Saver
	media []*zip.File
	root  string
	meter *budgetReader // counts what extraction reads from the archive, for the ratio limit
}

// SaveImported extracts the media for run, saves run, then moves the media into place.
func (s mediaSaver) SaveImported(run agent.Run) error {
	refs, err := runfile.MediaNames(run.Attempts)
	if err != nil {
		return refuse(RunFile, "%v", err)
	}
	for _, f := range s.media {
		if !slices.Contains(refs, mediaName(f)) {
			return refuse(f.Name, "the run file names no such media; a bundle holds only the media its run uses")
		}
	}
	if len(s.media) == 0 {
		return s.next.SaveImported(run)
	}
	tmp, madeRoot, err := s.extract(run.ID)
	if err != nil {
		return err
	}
	abandon := func(err error) error {
		tmp.Remove()
		if madeRoot {
			os.Remove(s.root)
		}
		return err
	}
	if err := s.meter.ctx.Err(); err != nil { // stopped once the media were out: keep nothing
		return abandon(err)
	}
	if err := s.next.SaveImported(run); err != nil {
		return abandon(err)
	}
	if err := os.Rename(tmp.Path, filepath.Join(s.root, run.ID)); err != nil {
		_ = tmp.Release() // the next sweep moves them (see Settle)
		return fmt.Errorf("the run is stored as %s, but its media could not be moved into place; the next start moves them: %w", run.ID, err)
	}
	// The media are in place; a marker or lock file that fails to go is harmless, and the
	// next sweep removes the lock.
	_ = os.Remove(filepath.Join(s.root, run.ID, runMarker))
	_ = tmp.Release()
	return nil
}

// extract writes the media for run runID into a new temporary folder inside root, held (see
// scratch) so that no sweep touches it while this process lives, with the marker naming the
// run. It reports whether it made root, for a failure to remove again; on a failure of its
// own it leaves nothing behind.
func (s mediaSaver) extract(runID string) (*scratch.Held, bool, error) {
	// The run's media folder must be free before the run is stored, so that the media can
	// move there once it is.
	if _, err := os.Lstat(filepath.Join(s.root, runID)); !errors.Is(err, fs.ErrNotExist) {
		return nil, false, fmt.Errorf("moving the bundle's media into place: %s is already there (%v)", filepath.Join(s.root, runID), err)
	}
	_, statErr := os.Stat(s.root)
	madeRoot := errors.Is(statErr, fs.ErrNotExist)
	if err := os.MkdirAll(s.root, 0o755); err != nil {
		return nil, false, fmt.Errorf("creating the media folder: %w", err)
	}
	tmp, err := scratch.Dir(s.root, ImportPrefix)
	if err == nil {
		err = s.writeInto(tmp.Path, runID)
		if err != nil {
			tmp.Remove()
		}
	} else {
		err = fmt.Errorf("creating a folder for the bundle's media: %w", err)
	}
	if err != nil {
		if madeRoot {
			os.Remove(s.root)
		}
		return nil, false, err
	}
	return tmp, madeRoot, nil
}

// writeInto writes the media and the marker naming run runID into the folder dir.
func (s mediaSaver) writeInto(dir, runID string) error {
	for _, f := range s.media {
		if err := writeFile(filepath.Join(dir, mediaName(f)), f, s.meter); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, runMarker), []byte(runID), 0o644); err != nil {
		return fmt.Errorf("extracting the bundle's media: %w", err)
	}
	// The held folder is private; a run's media folder is as readable as a live one.
	if err := os.Chmod(dir, 0o755); err != nil {
		return fmt.Errorf("extracting the bundle's media: %w", err)
	}
	return nil
}

// Settle is what a sweep of the media root does with an import's temporary folder at path
// that nobody holds, its process killed: when stored says the run its marker names was
// stored, the import had committed, so the media move into place under the run's id;
// otherwise they are left for the sweep to remove, as is a folder with no marker or one
// whose run already has media.
func Settle(stored func(runID string) (bool, error)) func(path string) error {
	return func(path string) error {
		id, err := os.ReadFile(filepath.Join(path, runMarker))
		if err != nil || !plainID(string(id)) {
			return nil
		}
		ok, err := stored(string(id))
		if err != nil || !ok {
			return err
		}
		dest := filepath.Join(filepath.Dir(path), string(id))
		if _, err := os.Lstat(dest); !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := os.Rename(path, dest); err != nil {
			return err
		}
		_ = os.Remove(filepath.Join(dest, runMarker))
		return nil
	}
}

// SweepMarkers removes the markers left in runs' media folders under root by imports killed
// after their media moved into place but before the marker went (see SaveImported): the run
// is whole then, and the marker names nothing. It returns the markers it removed.
func SweepMarkers(root string) ([]string, error) {
	left, err := filepath.Glob(filepath.Join(root, "*", runMarker))
	var removed []string
	for _, m := range left {
		if !plainID(filepath.Base(filepath.Dir(m))) {
			continue // an import's own folder: Settle's
		}
		if e := os.Remove(m); e != nil {
			err = errors.Join(err, e)
			continue
		}
		removed = append(removed, m)
	}
	return removed, err
}

// plainID reports whether id can be a run's media folder's name: one path element, no dot
// first.
func plainID(id string) bool {
	return id != "" && !strings.HasPrefix(id, ".") && !strings.ContainsAny(id, `/\`) && filepath.Base(id) == id
}

// writeFile extracts f to a new file at path, refusing it past MaxRatio (meter counts the
// archive's bytes read), or when it is named by its content (a screenshot, a DOM snapshot:
// see agent.ContentName) and its content is not what the name says: a file changed after it
// was recorded.
func writeFile(path string, f *zip.File, meter *budgetReader) error {
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("extracting %s: %w", f.Name, err)
	}
	content := agent.ContentHash()
	ext, named := agent.ContentNamed(mediaName(f))
	var w io.Writer = newRatioWriter(out, f.Name, meter)
	if named {
		w = io.MultiWriter(w, content)
	}
	if err := copyEntry(w, f); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("extracting %s: %w", f.Name, err)
	}
	if want := agent.HashedName(content, ext); named && want != mediaName(f) {
		return refuse(f.Name, "its content does not match its name (it would be named %s): the file was changed after it was recorded", want)
	}
	return nil
}

// mediaName is a media entry's file name, relative to the run's media folder.
func mediaName(f *zip.File) string { return strings.TrimPrefix(f.Name, MediaPrefix) }
