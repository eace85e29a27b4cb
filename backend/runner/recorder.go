package runner

import (
	"sync"

	"observatory/backend/agent"
)

// lockedRecorder hands a recorder one call at a time.
type lockedRecorder struct {
	mu   sync.Mutex
	next agent.Recorder
}

var _ agent.Recorder = (*lockedRecorder)(nil)

func (l *lockedRecorder) RunStarted(run agent.Run) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.next.RunStarted(run)
}

func (l *lockedRecorder) AttemptStarted(runID string, position int, a agent.Attempt) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.next.AttemptStarted(runID, position, a)
}

func (l *lockedRecorder) StepRecorded(runID, slug string, s agent.Step, events []agent.Event) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.next.StepRecorded(runID, slug, s, events)
}

func (l *lockedRecorder) AttemptFinished(runID string, a agent.Attempt) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.next.AttemptFinished(runID, a)
}

func (l *lockedRecorder) MediaSaved(runID, slug string, rec agent.Recording) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.next.MediaSaved(runID, slug, rec)
}

func (l *lockedRecorder) RunFinished(runID string, status agent.RunStatus) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.next.RunFinished(runID, status)
}
