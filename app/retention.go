package app

import (
	"errors"
	"fmt"
	"time"

	"observatory/backend/retention"
	"observatory/backend/runner"
	"observatory/backend/store"
)

// Prune applies the retention setting (Settings' Retention; off by default): it deletes, with
// their media, the stored runs past the newest KeepLast or added more than KeepDays days ago,
// except a run still being written (here or by another process) and the run the window last
// opened. It returns the IDs it deleted. The window's runs apply it when they end; `serve`,
// the desktop and `observatory runs --prune` apply it at start.
func (h *History) Prune() ([]string, error) {
	set, err := h.settings.Get()
	if err != nil {
		return nil, err
	}
	if set.Retention.Off() {
		return nil, nil
	}
	list, err := h.store.List()
	if err != nil {
		return nil, err
	}
	runs := make([]retention.Run, len(list))
	for k, s := range list {
		runs[k] = retention.Run{ID: s.ID, Added: s.Added}
	}
	keep := h.onScreen()
	var deleted []string
	var errs []error
	for _, id := range set.Retention.Expired(runs, time.Now()) {
		if keep[id] {
			continue
		}
		switch err := h.Delete(id); {
		case errors.Is(err, store.ErrRunning):
			continue // still being written: kept, and judged again next time
		case err != nil:
			errs = append(errs, err)
		default:
			deleted = append(deleted, id)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return deleted, fmt.Errorf("retention: %w", err)
	}
	return deleted, nil
}

// onScreen is the set of runs Prune must keep whatever their age: the one going and the one
// the window last opened.
func (h *History) onScreen() map[string]bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	keep := map[string]bool{h.shown: true}
	if h.going != nil {
		keep[h.going()] = true
	}
	return keep
}

// pruneAfterRun applies retention once run id has ended; what it could not delete is said on
// the run's event stream, never failing the run.
func (r *Runs) pruneAfterRun(id string) {
	if _, err := r.history.Prune(); err != nil {
		r.emit.Emit(EventRun, runner.Progress{RunID: id, Kind: runner.Error, Message: err.Error()})
	}
}
