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
)

// mediaSaver is the runfile.Saver Import hands to runfile.Import: once the run file is
// accepted it checks the media against the run, extracts them under the run's new id and
// saves the run through next, removing the media again if next fails.
type mediaSaver struct {
	next  runfile.Saver
	media []*zip.File
	root  string
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
	if err := s.next.SaveImported(run); err != nil {
		if dir != "" {
			os.RemoveAll(dir)
		}
		return err
	}
	return nil
}

// extract writes the media into a temporary folder inside root and renames it to
// root/runID, so that a failure leaves nothing behind. It returns the run's media folder,
// or "" when there are no media.
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
	var tmp string
	defer func() {
		if err != nil {
			if tmp != "" {
				os.RemoveAll(tmp)
			}
			if madeRoot {
				os.Remove(s.root)
			}
		}
	}()
	if tmp, err = os.MkdirTemp(s.root, ".import-"); err != nil {
		return "", fmt.Errorf("creating a folder for the bundle's media: %w", err)
	}
	for _, f := range s.media {
		if err := writeFile(filepath.Join(tmp, mediaName(f)), f); err != nil {
			return "", err
		}
	}
	// MkdirTemp makes the folder private; a run's media folder is as readable as a live one.
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", fmt.Errorf("extracting the bundle's media: %w", err)
	}
	dir = filepath.Join(s.root, runID)
	if err := os.Rename(tmp, dir); err != nil {
		return "", fmt.Errorf("moving the bundle's media into place: %w", err)
	}
	return dir, nil
}

// writeFile extracts f to a new file at path.
func writeFile(path string, f *zip.File) error {
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("extracting %s: %w", f.Name, err)
	}
	if err := copyEntry(out, f); err != nil {
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
