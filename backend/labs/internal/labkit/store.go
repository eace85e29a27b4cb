package labkit

import (
	"errors"
	"maps"
	"sync"
	"time"

	"observatory/backend/agent"
)

// ErrClosed is what a change to a closed store gets.
var ErrClosed = errors.New("this lab instance is closed; start a new one")

// Apply is a lab's transition function: the state after ev, or an error when ev cannot
// follow s. It must not modify s.
type Apply[S any] func(s S, ev agent.Event) (S, error)

// Store is a lab's authoritative state, changed only by appending events its transition
// function accepts. It is safe for concurrent use.
type Store[S any] struct {
	apply   Apply[S]
	started time.Time

	mu     sync.Mutex
	closed bool
	state  S
	events []agent.Event
}

// NewStore starts a store at initial; event times count from now.
func NewStore[S any](initial S, apply Apply[S]) *Store[S] {
	return &Store[S]{apply: apply, started: time.Now(), state: initial}
}

// State returns the state now.
func (s *Store[S]) State() S {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// Events returns a copy of the event log so far.
func (s *Store[S]) Events() []agent.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]agent.Event, len(s.events))
	for i, ev := range s.events {
		ev.Data = maps.Clone(ev.Data)
		out[i] = ev
	}
	return out
}

// Log appends one event once the transition function accepts it.
func (s *Store[S]) Log(typ string, data map[string]string) error {
	return s.Tx(func(tx *Tx[S]) error { return tx.Log(typ, data) })
}

// Tx runs f with the store locked, so that what f reads and the events it logs form one
// step no other request can interleave with. It fails with ErrClosed once the store is
// closed.
func (s *Store[S]) Tx(f func(tx *Tx[S]) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	return f(&Tx[S]{s: s})
}

// Close refuses every later change.
func (s *Store[S]) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
}

// Tx is a store locked for one step.
type Tx[S any] struct{ s *Store[S] }

// State is the state as of the events logged so far.
func (tx *Tx[S]) State() S { return tx.s.state }

// Log appends one event once the transition function accepts it.
func (tx *Tx[S]) Log(typ string, data map[string]string) error {
	s := tx.s
	ev := agent.Event{Seq: len(s.events) + 1, AtMS: time.Since(s.started).Milliseconds(), Type: typ, Data: data}
	next, err := s.apply(s.state, ev)
	if err != nil {
		return err
	}
	s.state = next
	s.events = append(s.events, ev)
	return nil
}
