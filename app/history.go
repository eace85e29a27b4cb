package app

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"observatory/backend/agent"
	"observatory/backend/runfile"
	"observatory/backend/store"
)

// History reads the stored runs and removes them: the list, a run's header, its steps in
// blocks, an attempt's replay, deletion and retention.
type History struct {
	store    *store.Store
	settings *Settings
	media    string
	// going is the ID of the run going now, "" when none is: retention keeps it.
	going func() string
	// replays keeps the replays of finished runs' attempts.
	replays replayCache

	mu sync.Mutex
	// shown is the run the window last opened (Header), which retention keeps.
	shown string
}

// List lists stored runs, newest first.
func (h *History) List() ([]store.Summary, error) { return h.store.List() }

// Get returns one stored run whole (a unique id prefix is enough): every step with its
// samples. The window opens a run with Header instead, and reads its steps with Steps.
func (h *History) Get(id string) (agent.Run, error) { return h.store.Get(id) }

// Header returns one stored run with its attempts, their verdicts and events, their steps
// counted and, for attempts of at most store.InlineSteps steps, summarised, but no step
// itself: what the window opens a run with, however long it is. Retention keeps the run it
// last returned.
func (h *History) Header(id string) (store.RunHeader, error) {
	head, err := h.store.Header(id)
	if err == nil {
		h.mu.Lock()
		h.shown = head.ID
		h.mu.Unlock()
	}
	return head, err
}

// Summaries returns the summary of every step of attempt slug of stored run id: the step
// list and timeline of an attempt too long for its header to carry them.
func (h *History) Summaries(id, slug string) ([]agent.StepSummary, error) {
	return h.store.Summaries(id, slug)
}

// MaxSteps is the most steps one call of Steps returns.
const MaxSteps = 100

// Steps returns up to count steps of attempt slug of stored run id whole, from the one at
// position from (0 is the first): the window reads the steps it shows, and those next to
// them, this way. A count above MaxSteps is refused.
func (h *History) Steps(id, slug string, from, count int) ([]agent.Step, error) {
	if count > MaxSteps {
		return nil, fmt.Errorf("%d steps asked for at once; at most %d", count, MaxSteps)
	}
	return h.store.Steps(id, slug, from, count)
}

// Replay rebuilds one attempt of a stored run from its events, frame by frame, and
// recomputes its verdicts beside the ones recorded. It reads that attempt alone, and once
// the run has finished keeps the answer, which cannot change.
func (h *History) Replay(id, slug string) (runfile.AttemptReplay, error) {
	stamp, err := h.store.Stamp(id)
	if err != nil {
		return runfile.AttemptReplay{}, err
	}
	key := replayKey{run: stamp.ID, added: stamp.Added, slug: slug}
	if rep, ok := h.replays.get(key); ok {
		return rep, nil
	}
	run, err := h.store.Attempt(stamp.ID, slug)
	if err != nil {
		return runfile.AttemptReplay{}, err
	}
	suite, err := Resolve(run.Task, run.Spec)
	if err != nil {
		return runfile.AttemptReplay{}, err
	}
	rep, err := runfile.ReplayAttempt(suite, run.Attempts[0])
	if err == nil && stamp.Status != agent.RunRunning {
		h.replays.put(key, rep)
	}
	return rep, err
}

// Delete removes a stored run from the history (a unique id prefix is enough): its attempts,
// steps and events, then its media folder (videos, screenshots, traces). A run still running,
// here or in another process, is refused (store.ErrRunning): stop it first.
func (h *History) Delete(id string) error {
	full, err := h.store.Delete(id)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(filepath.Join(h.media, full)); err != nil {
		return fmt.Errorf("run %s is gone from the history, but its media folder was not removed: %w", full, err)
	}
	return nil
}
