package app

import "sync"

// Emitter sends a named event to the user interface.
type Emitter interface {
	Emit(name string, data any)
}

// Audience is an Emitter that knows whether anyone receives its events now: serve's, which
// has nobody while no page is open. An Emitter without it (the desktop's window) always has
// someone.
type Audience interface {
	Watching() bool
}

// EventRun is the one event name runs are reported under. Its payload is a RunEvent (a
// runner.Progress numbered) for a run started from the window, and a bare runner.Progress for
// what is reported of a run after its end (retention's errors).
const EventRun = "run"

// EventLive carries the runner.Progress screencast events of the running attempts, apart
// from EventRun: a transport may drop them for a watcher that falls behind, never the rest.
const EventLive = "live"

// switchableEmitter lets the transport plug its emitter in after the services exist (Wails
// only hands out its context at start-up).
type switchableEmitter struct {
	mu sync.RWMutex
	to Emitter
}

func (e *switchableEmitter) set(to Emitter) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.to = to
}

func (e *switchableEmitter) Emit(name string, data any) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.to != nil {
		e.to.Emit(name, data)
	}
}

// watched says whether someone receives the events: nobody before a transport is plugged in.
func (e *switchableEmitter) watched() bool {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if a, ok := e.to.(Audience); ok {
		return a.Watching()
	}
	return e.to != nil
}
