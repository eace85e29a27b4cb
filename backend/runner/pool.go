package runner

import (
	"context"
	"sync"

	"observatory/backend/agent"
)

// pool is the browser a run's attempts share: launched on first use, and launched again
// after one dies, for the attempts that come after.
type pool struct {
	launch Launcher

	mu      sync.Mutex
	current agent.Browser
	retired []agent.Browser
}

// get returns the current browser, launching one if there is none. Attempts waiting on a
// launch wait for the same one.
func (p *pool) get(ctx context.Context) (agent.Browser, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.current != nil {
		return p.current, nil
	}
	b, err := p.launch(ctx)
	if err != nil {
		return nil, err
	}
	p.current = b
	return b, nil
}

// gone retires b after it died, so the next attempt launches a new browser. Attempts still
// running in b end with it; b is closed when the run ends.
func (p *pool) gone(b agent.Browser) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.current == b {
		p.current = nil
		p.retired = append(p.retired, b)
	}
}

// close closes every browser the pool launched.
func (p *pool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, b := range append(p.retired, p.current) {
		if b != nil {
			_ = b.Close()
		}
	}
	p.current, p.retired = nil, nil
}

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

func (l *lockedRecorder) RunFinished(runID string, status agent.RunStatus) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.next.RunFinished(runID, status)
}
