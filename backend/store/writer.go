package store

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"observatory/backend/internal/filelock"
)

// Several processes may share one data folder: the desktop app in the middle of a run and a
// CLI command listing the history. Each open Store is a writer with a random token, recorded
// on the runs it starts, and holds an advisory lock on <data folder>/writers/<token>.lock for
// as long as it is open. The operating system drops the lock when the process dies, however it
// dies, so a running run whose writer's lock nobody holds was cut off, and one whose lock is
// held is still being written.

// writersDir is the folder, inside the data folder, of the writers' lock files.
const writersDir = "writers"

// lockExt ends every writer lock file's name.
const lockExt = ".lock"

// lockAttempts bounds how often acquireWriter recreates its lock file after another process,
// sweeping dead writers, deleted it before it was locked.
const lockAttempts = 5

// writerLock is this Store's held lock file.
type writerLock struct {
	token string
	path  string
	file  *os.File
}

// acquireWriter creates and locks a lock file under a fresh token in dataDir's writers folder.
func acquireWriter(dataDir string) (*writerLock, error) {
	dir := filepath.Join(dataDir, writersDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the writers folder %s: %w", dir, err)
	}
	token := rand.Text()
	path := filepath.Join(dir, token+lockExt)
	for range lockAttempts {
		f, err := lockedFile(path)
		if errors.Is(err, errLockDeleted) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("locking %s: %w (check the data folder's permissions)", path, err)
		}
		return &writerLock{token: token, path: path, file: f}, nil
	}
	return nil, fmt.Errorf("locking %s: %w %d times; try again", path, errLockDeleted, lockAttempts)
}

// errLockDeleted means a sweep of dead writers deleted a lock file between its creation and
// its locking, which leaves the lock on a file that has no name.
var errLockDeleted = errors.New("the lock file was deleted before it was locked")

// lockedFile opens (creating) path and locks it; it fails with errLockDeleted if path no
// longer names the locked file.
func lockedFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
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

// release unlocks and deletes the lock file; a read-only Store has none.
func (w *writerLock) release() error {
	if w == nil {
		return nil
	}
	if err := filelock.RemoveLocked(w.file, w.path); err != nil {
		return fmt.Errorf("removing the writer lock %s: %w", w.path, err)
	}
	return nil
}

// liveWriters returns the tokens of the writers whose lock files are held, and deletes the
// lock files of the others, whose processes have died.
func liveWriters(dataDir string) (map[string]bool, error) {
	dir := filepath.Join(dataDir, writersDir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing the writers folder %s: %w", dir, err)
	}
	live := map[string]bool{}
	for _, e := range entries {
		token, ok := strings.CutSuffix(e.Name(), lockExt)
		if !ok || e.IsDir() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		held, err := filelock.Held(path)
		if err != nil {
			return nil, fmt.Errorf("checking the writer lock %s: %w (delete it if no Observatory is running)", path, err)
		}
		if held {
			live[token] = true
		}
	}
	return live, nil
}
