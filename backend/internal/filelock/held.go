package filelock

import (
	"errors"
	"io/fs"
	"os"
)

// Held reports whether some open file, in this process or another, holds the lock on the
// lock file at path. A lock file nobody holds is deleted; a missing one is not held.
func Held(path string) (bool, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	locked, err := TryLock(f)
	if err != nil {
		f.Close()
		return false, err
	}
	if !locked {
		return true, f.Close()
	}
	return false, RemoveLocked(f, path)
}
