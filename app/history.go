package app

import (
	"fmt"
	"os"
	"path/filepath"
)

// Delete removes a stored run from the history (a unique id prefix is enough): its attempts,
// steps and events, then its media folder (videos, screenshots, traces). A run still running,
// here or in another process, is refused (store.ErrRunning): stop it first.
func (r *Runs) Delete(id string) error {
	full, err := r.store.Delete(id)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(filepath.Join(r.media, full)); err != nil {
		return fmt.Errorf("run %s is gone from the history, but its media folder was not removed: %w", full, err)
	}
	return nil
}
