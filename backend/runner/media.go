package runner

import (
	"sync"

	"observatory/backend/agent"
)

// mediaSaver finishes the recordings of a run's attempts in the background: an attempt's
// video and trace are written after its verdict is known and recorded, while the next
// attempt runs, and Run waits for them all before it ends. Each saved recording is recorded
// (agent.Recorder.MediaSaved) and sent as a MediaSaved progress event.
type mediaSaver struct {
	wg    sync.WaitGroup
	mu    sync.Mutex
	saved map[string]agent.Recording // by attempt slug
}

// detach cuts page off at once and returns what finishes its recording: at once for a page
// that cannot be detached, whose Close does both.
func detach(page agent.Page) func() (agent.Recording, error) {
	if d, ok := page.(agent.Detacher); ok {
		return d.Detach()
	}
	rec, err := page.Close()
	return func() (agent.Recording, error) { return rec, err }
}

// save finishes one attempt's recording in the background, then records and reports it.
func (m *mediaSaver) save(runID, slug string, finish func() (agent.Recording, error),
	emit func(Progress), record func(func(agent.Recorder) error) error) {
	m.wg.Go(func() {
		rec, err := finish()
		if err != nil {
			emit(Progress{RunID: runID, Kind: Error, Slug: slug, Message: "closing the page: " + err.Error()})
		}
		if rec == (agent.Recording{}) {
			return
		}
		m.mu.Lock()
		if m.saved == nil {
			m.saved = map[string]agent.Recording{}
		}
		m.saved[slug] = rec
		m.mu.Unlock()
		if err := record(func(r agent.Recorder) error { return r.MediaSaved(runID, slug, rec) }); err != nil {
			emit(Progress{RunID: runID, Kind: Error, Slug: slug, Message: err.Error()})
		}
		emit(Progress{RunID: runID, Kind: MediaSaved, Slug: slug, Media: &rec})
	})
}

// wait waits until every recording started is finished.
func (m *mediaSaver) wait() { m.wg.Wait() }

// onto is a with its saved recording, once wait has returned.
func (m *mediaSaver) onto(a agent.Attempt) agent.Attempt {
	m.mu.Lock()
	defer m.mu.Unlock()
	if rec, ok := m.saved[a.Slug]; ok {
		a.Video, a.Trace = rec.Video, rec.Trace
	}
	return a
}
