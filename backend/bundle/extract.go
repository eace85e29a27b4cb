package bundle

import (
	"archive/zip"
	"errors"
	"fmt"
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
// extracts a bundle's media into before renaming it to the run's id. A process killed while
// extracting leaves it behind, held by nobody, for scratch.Sweep.
const ImportPrefix = ".import-"

// mediaSaver is the runfile.Saver Import hands to runfile.Import: once the run file is
// accepted it checks the media against the run, extracts them under the run's new id and
// saves the run through next, removing the media again if next fails.
type mediaSaver struct {
	next  runfile.Saver
	media []*zip.File
	root  string
	meter *budgetReader // counts what extraction reads from the archive, for the ratio limit
}

// SaveImported extracts the media for run, then saves run.
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
	dir, err := s.extract(run.ID)
	if err != nil {
		return err
	}
	if err := s.meter.ctx.Err(); err != nil { // stopped once the media were out: keep nothing
		if dir != "" {
			os.RemoveAll(dir)
		}
		return err
	}
	if err := s.next.SaveImported(run); err != nil {
		if dir != "" {
			os.RemoveAll(dir)
		}
		return err
	}
	return nil
}

// extract writes the media into a temporary folder inside root, held (see scratch) so that
// a start-up sweep removes it if this process dies, and renames it to root/runID, so that a
// failure leaves nothing behind. It returns the run's media folder, or "" when there are no
// media.
func (s mediaSaver) extract(runID string) (dir string, err error) {
	if len(s.media) == 0 {
		return "", nil
	}
	// A refused bundle leaves nothing behind, not even a media root this import made.
	_, statErr := os.Stat(s.root)
	madeRoot := errors.Is(statErr, fs.ErrNotExist)
	if err := os.MkdirAll(s.root, 0o755); err != nil {
		return "", fmt.Errorf("creating the media folder: %w", err)
	}
	var tmp *scratch.Held
	defer func() {
		if err != nil {
			if tmp != nil {
				tmp.Remove()
			}
			if madeRoot {
				os.Remove(s.root)
			}
		}
	}()
	if tmp, err = scratch.Dir(s.root, ImportPrefix); err != nil {
		return "", fmt.Errorf("creating a folder for the bundle's media: %w", err)
	}
	for _, f := range s.media {
		if err := writeFile(filepath.Join(tmp.Path, mediaName(f)), f, s.meter); err != nil {
			return "", err
		}
	}
	// The held folder is private; a run's media folder is as readable as a live one.
	if err := os.Chmod(tmp.Path, 0o755); err != nil {
		return "", fmt.Errorf("extracting the bundle's media: %w", err)
	}
	dir = filepath.Join(s.root, runID)
	if err := os.Rename(tmp.Path, dir); err != nil {
		return "", fmt.Errorf("moving the bundle's media into place: %w", err)
	}
	// The media are in place; a lock file that fails to go is unlocked, and the next sweep
	// removes it.
	_ = tmp.Release()
	return dir, nil
}

// writeFile extracts f to a new file at path, refusing it past MaxRatio (meter counts the
// archive's bytes read).
func writeFile(path string, f *zip.File, meter *budgetReader) error {
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("extracting %s: %w", f.Name, err)
	}
	if err := copyEntry(newRatioWriter(out, f.Name, meter), f); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("extracting %s: %w", f.Name, err)
	}
	return nil
}

// mediaName is a media entry's file name, relative to the run's media folder.
func mediaName(f *zip.File) string { return strings.TrimPrefix(f.Name, MediaPrefix) }
