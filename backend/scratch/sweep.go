package scratch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"observatory/backend/internal/filelock"
)

// Sweep removes from parent every file or folder named prefix… that no live process holds
// (its lock file is not locked, or is missing), with its lock file, and returns the paths
// it removed. Those held, by this process or another, are left alone. A missing parent
// holds nothing to sweep. It goes on past a path it cannot remove and reports them all.
func Sweep(parent, prefix string) (removed []string, err error) {
	return SweepSettling(parent, prefix, nil)
}

// SweepSettling is Sweep, calling settle on each path nobody holds before removing it,
// while the sweep holds it: settle may move it into place (finishing what its killed holder
// had committed to), and what it leaves is removed. A path whose settle fails is kept, and
// the error reported. A nil settle settles nothing.
func SweepSettling(parent, prefix string, settle func(path string) error) (removed []string, err error) {
	entries, err := os.ReadDir(parent)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sweeping %s: %w", parent, err)
	}
	var errs []error
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		path, isLock := strings.CutSuffix(filepath.Join(parent, e.Name()), lockExt)
		var gone bool
		var err error
		if isLock {
			gone, err = sweepLocked(path, settle)
		} else {
			gone, err = sweepUnlocked(path, settle)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("sweeping %s: %w", path, err))
		}
		if gone {
			removed = append(removed, path)
		}
	}
	return removed, errors.Join(errs...)
}

// sweepLocked removes path and then its lock file if the lock is not held. The lock is kept
// until path is gone, so no path is ever seen without its lock file while it is in use.
func sweepLocked(path string, settle func(string) error) (removed bool, err error) {
	f, err := os.OpenFile(path+lockExt, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil // released, or swept by another process, since the listing
	}
	if err != nil {
		return false, err
	}
	locked, err := filelock.TryLock(f)
	if err != nil || !locked {
		return false, errors.Join(err, f.Close())
	}
	if err := settleThenRemove(path, settle); err != nil {
		return false, errors.Join(err, f.Close())
	}
	return true, filelock.RemoveLocked(f, path+lockExt)
}

// sweepUnlocked removes path if it has no lock file: its holder released it without
// removing it, or was killed between the two. (A holder creates the lock file first and
// deletes it last, so a path in use always has one.)
func sweepUnlocked(path string, settle func(string) error) (removed bool, err error) {
	if _, err := os.Lstat(path + lockExt); !errors.Is(err, fs.ErrNotExist) {
		return false, err // nil: the lock file is there, and sweepLocked decides
	}
	if err := settleThenRemove(path, settle); err != nil {
		return false, err
	}
	return true, nil
}

// settleThenRemove calls settle on path, if there is a settle, then removes what is left.
func settleThenRemove(path string, settle func(string) error) error {
	if settle != nil {
		if err := settle(path); err != nil {
			return err
		}
	}
	return os.RemoveAll(path)
}
