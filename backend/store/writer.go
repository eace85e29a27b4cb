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
	f, path, err := filelock.Fresh(dir, func() string { return rand.Text() + lockExt })
	if err != nil {
		return nil, fmt.Errorf("%w (check the data folder's permissions)", err)
	}
	return &writerLock{token: strings.TrimSuffix(filepath.Base(path), lockExt), path: path, file: f}, nil
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
