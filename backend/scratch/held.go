package scratch

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"strings"

	"observatory/backend/internal/filelock"
)

// lockExt ends the name of the lock file beside each held path.
const lockExt = ".lock"

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
	lock, lockPath, err := filelock.Fresh(parent, func() string { return prefix + rand.Text() + lockExt })
	if err != nil {
		return nil, err
	}
	path := strings.TrimSuffix(lockPath, lockExt)
	if err := create(path); err != nil {
		return nil, errors.Join(err, filelock.RemoveLocked(lock, lockPath))
	}
	return &Held{Path: path, lock: lock}, nil
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
