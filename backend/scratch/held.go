package scratch

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"observatory/backend/internal/filelock"
)

// lockExt ends the name of the lock file beside each held path.
const lockExt = ".lock"

// holdAttempts bounds how often a new name is tried when a sweep deleted the lock file
// between its creation and its locking, or the name was taken.
const holdAttempts = 5

// Held is a temporary file or folder this process holds: no sweep removes it until Release
// or Remove.
type Held struct {
	// Path is the file or folder.
	Path string
	lock *os.File
}

// Dir creates a new private folder in parent (created if needed), named prefix followed by
// random characters, and holds it.
func Dir(parent, prefix string) (*Held, error) {
	return hold(parent, prefix, func(path string) error { return os.Mkdir(path, 0o700) })
}

// File creates a new private empty file in parent (created if needed), named prefix followed
// by random characters, holds it, and returns it open for writing; the caller closes it.
func File(parent, prefix string) (*Held, *os.File, error) {
	var f *os.File
	h, err := hold(parent, prefix, func(path string) (err error) {
		f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		return err
	})
	return h, f, err
}

// hold locks a fresh name's lock file in parent, then makes the file or folder with create.
func hold(parent, prefix string, create func(path string) error) (*Held, error) {
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", parent, err)
	}
	for range holdAttempts {
		path := filepath.Join(parent, prefix+rand.Text())
		lock, err := newLockedFile(path + lockExt)
		if errors.Is(err, errLockDeleted) || errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("locking %s: %w", path+lockExt, err)
		}
		if err := create(path); err != nil {
			return nil, errors.Join(err, filelock.RemoveLocked(lock, path+lockExt))
		}
		return &Held{Path: path, lock: lock}, nil
	}
	return nil, fmt.Errorf("creating a temporary file in %s: %w %d times; try again", parent, errLockDeleted, holdAttempts)
}

// errLockDeleted means a sweep deleted a lock file between its creation and its locking,
// which leaves the lock on a file that has no name.
var errLockDeleted = errors.New("the lock file was deleted before it was locked")

// newLockedFile creates path, which must not exist, and locks it; it fails with
// errLockDeleted if path no longer names the locked file.
func newLockedFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	if err := filelock.Lock(f); err != nil {
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
	return nil, errLockDeleted
}

// Release gives up the hold, deleting the lock file. Call it once Path has been moved into
// place or removed; a Path still there is then left to the next sweep.
func (h *Held) Release() error {
	if err := filelock.RemoveLocked(h.lock, h.Path+lockExt); err != nil {
		return fmt.Errorf("removing the lock %s: %w", h.Path+lockExt, err)
	}
	return nil
}

// Remove deletes Path, and all it holds, then releases it.
func (h *Held) Remove() error {
	return errors.Join(os.RemoveAll(h.Path), h.Release())
}
