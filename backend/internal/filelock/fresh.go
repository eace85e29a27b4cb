package filelock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// freshAttempts bounds how often Fresh tries a new name when the name was taken, or a sweep
// deleted the lock file between its creation and its locking.
const freshAttempts = 5

// errDeleted means a sweep deleted a lock file between its creation and its locking, which
// leaves the lock on a file that has no name.
var errDeleted = errors.New("the lock file was deleted before it was locked")

// Fresh creates a new lock file in dir (which must exist), named by name, and locks it. A name
// that is taken, or whose file a sweep of dead holders (see Held) deleted before it was
// locked, is given up for another from name, a few times. It returns the locked file, which
// RemoveLocked releases, and its path.
func Fresh(dir string, name func() string) (*os.File, string, error) {
	for range freshAttempts {
		path := filepath.Join(dir, name())
		f, err := create(path)
		if errors.Is(err, errDeleted) || errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, "", fmt.Errorf("locking %s: %w", path, err)
		}
		return f, path, nil
	}
	return nil, "", fmt.Errorf("creating a lock file in %s: %w %d times; try again", dir, errDeleted, freshAttempts)
}

// create creates path, which must not exist, and locks it; it fails with errDeleted if path
// no longer names the locked file.
func create(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	if err := Lock(f); err != nil {
		f.Close()
		return nil, err
	}
	held, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	named, err := os.Stat(path)
	if err == nil && os.SameFile(held, named) {
		return f, nil
	}
	f.Close()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return nil, errDeleted
}
