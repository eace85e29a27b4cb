//go:build windows

package filelock

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// Lock takes an exclusive LockFileEx lock on f's first byte, waiting for any other
// holder to let go. The lock belongs to the handle: Windows releases it when the handle is
// closed or its process dies, and a second handle to the same file cannot take it.
func Lock(f *os.File) error {
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, new(windows.Overlapped))
}

// TryLock takes an exclusive lock on f if nobody holds one; it reports false if another
// handle holds it.
func TryLock(f *os.File) (bool, error) {
	err := windows.LockFileEx(windows.Handle(f.Fd()),
		windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, new(windows.Overlapped))
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return false, nil
	}
	return err == nil, err
}

// RemoveLocked unlocks and closes the lock file f, locked by us, and then deletes it. Windows
// cannot delete a file while any handle to it is open (Go opens files without
// FILE_SHARE_DELETE), so the handle goes first; for the same reason a holder that has just
// created the file, and has not locked it yet, keeps it from being deleted: that sharing
// violation is expected and leaves the file to its holder.
func RemoveLocked(f *os.File, path string) error {
	unlockErr := windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, new(windows.Overlapped))
	closeErr := f.Close()
	err := os.Remove(path)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, windows.ERROR_SHARING_VIOLATION) {
		err = nil
	}
	return errors.Join(unlockErr, closeErr, err)
}
