//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris

package filelock

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// Lock takes an exclusive flock on f, waiting for any other holder to let go. A flock
// belongs to the open file, so it is released when f is closed or its process dies, even by
// SIGKILL, and a second open of the same file, in this process or another, cannot take it.
func Lock(f *os.File) error {
	return unix.Flock(int(f.Fd()), unix.LOCK_EX)
}

// TryLock takes an exclusive flock on f if nobody holds one; it reports false if another
// open file holds it.
func TryLock(f *os.File) (bool, error) {
	err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

// RemoveLocked deletes the lock file f, locked by us, and then closes it. Deleting before
// unlocking means nobody can lock the file between our check and its deletion and then hold
// a lock on a file that no longer has a name.
func RemoveLocked(f *os.File, path string) error {
	err := os.Remove(path)
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	return errors.Join(err, f.Close())
}
