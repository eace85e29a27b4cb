package booking

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"observatory/backend/agent"
	"observatory/backend/labs/internal/labkit"
)

// errClosed is what a request gets once its instance is closed.
var errClosed = errors.New("this booking lab instance is closed; start a new one")

// Instance is one running copy of the booking app on its host, with its own store and event
// log. It is safe for concurrent use.
type Instance struct {
	fault   string
	latency time.Duration
	started time.Time
	url     string
	srv     *http.Server

	mu       sync.Mutex
	closed   bool
	state    State
	events   []agent.Event
	inflight int
	idle     chan struct{} // closed whenever inflight is 0
}

// Start serves a fresh instance on an ephemeral port of host (127.0.0.1 when empty). Every
// save waits latencyMS milliseconds before the server answers it.
func Start(host, fault string, latencyMS int) (*Instance, error) {
	if err := checkFault(fault); err != nil {
		return nil, err
	}
	if latencyMS < 0 {
		return nil, fmt.Errorf("booking lab latency %d ms: want 0 or more", latencyMS)
	}
	ln, url, err := labkit.Listen("booking lab", host)
	if err != nil {
		return nil, err
	}
	idle := make(chan struct{})
	close(idle)
	in := &Instance{
		fault:   fault,
		latency: time.Duration(latencyMS) * time.Millisecond,
		started: time.Now(),
		url:     url,
		state:   Initial(),
		idle:    idle,
	}
	in.srv = &http.Server{Handler: in.track(in.routes()), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = in.srv.Serve(ln) }() // returns http.ErrServerClosed on Close
	return in, nil
}

// URL is the app's start page.
func (in *Instance) URL() string { return in.url }

// State returns the app's authoritative state now.
func (in *Instance) State() State {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.state
}

// Events returns a copy of the event log so far.
func (in *Instance) Events() []agent.Event {
	in.mu.Lock()
	defer in.mu.Unlock()
	out := make([]agent.Event, len(in.events))
	for i, ev := range in.events {
		ev.Data = maps.Clone(ev.Data)
		out[i] = ev
	}
	return out
}

// Check evaluates the completion gate on the server's state now, and whether that state makes
// further waiting pointless.
func (in *Instance) Check(req Request) agent.Check {
	s := in.State()
	g := Gate(s, req)
	settled, why := Settle(s, g)
	return agent.Check{Gate: g, Settled: settled, SettledReason: why}
}

// Settler takes the server's state now and returns whether waiting on a gate evaluated after
// it is pointless (see the package-level Settle): a task file's own gate gets the app's
// refusals this way.
func (in *Instance) Settler() func(agent.Gate) (agent.Terminal, string) {
	s := in.State()
	return func(g agent.Gate) (agent.Terminal, string) { return Settle(s, g) }
}

// Quiesce waits until no request is being handled, or ctx ends.
func (in *Instance) Quiesce(ctx context.Context) error {
	in.mu.Lock()
	idle := in.idle
	in.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("booking lab: requests still in flight: %w", ctx.Err())
	}
}

// Close stops the server. From then on nothing is committed or logged, and late requests fail.
func (in *Instance) Close() error {
	in.mu.Lock()
	if in.closed {
		in.mu.Unlock()
		return nil
	}
	in.closed = true
	in.mu.Unlock()
	if err := in.srv.Close(); err != nil {
		return fmt.Errorf("booking lab: close the server: %w", err)
	}
	return nil
}

// log appends one event after Apply accepts it. It fails with errClosed once the instance is
// closed and with an *EventError when the event cannot follow the current state.
func (in *Instance) log(typ string, data map[string]string) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.logLocked(typ, data)
}

// logLocked is log with in.mu held.
func (in *Instance) logLocked(typ string, data map[string]string) error {
	if in.closed {
		return errClosed
	}
	ev := agent.Event{Seq: len(in.events) + 1, AtMS: time.Since(in.started).Milliseconds(), Type: typ, Data: data}
	next, err := Apply(in.state, ev)
	if err != nil {
		return err
	}
	in.state = next
	in.events = append(in.events, ev)
	return nil
}

// finishSave logs how the server answers a save whose latency has passed, according to the
// fault, and returns the refusal message for the page, empty when the save succeeded.
func (in *Instance) finishSave(title, room string) (refusal string, err error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closed {
		return "", errClosed
	}
	switch in.fault {
	case FaultRefused:
		reason := roomLabel(room) + " is closed for maintenance"
		return "Save refused: " + reason, in.logLocked(EventRefused, map[string]string{"reason": reason})
	case FaultWrongRoom:
		room = RoomSouth
	}
	if in.fault != FaultNoticeNoCommit {
		id := strconv.Itoa(len(in.state.Records) + 1)
		if err := in.logLocked(EventCommitted, map[string]string{"id": id, "title": title, "room": room}); err != nil {
			return "", err
		}
	}
	return "", in.logLocked(EventSaveCompleted, nil)
}

// records returns a copy of the committed records.
func (in *Instance) records() []Record {
	in.mu.Lock()
	defer in.mu.Unlock()
	return slices.Clone(in.state.Records)
}

// track counts the requests being handled, for Quiesce.
func (in *Instance) track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in.mu.Lock()
		if in.inflight == 0 {
			in.idle = make(chan struct{})
		}
		in.inflight++
		in.mu.Unlock()
		defer func() {
			in.mu.Lock()
			in.inflight--
			if in.inflight == 0 {
				close(in.idle)
			}
			in.mu.Unlock()
		}()
		next.ServeHTTP(w, r)
	})
}
