package labkit

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"observatory/backend/agent"
)

// App is one running copy of a lab's app: the store of its authoritative state (whose State,
// Events, Log and Tx it offers), the fault it plays, how long its slow answers take, and the
// server of its page and API. A lab's Instance embeds it and adds its handlers.
type App[S any] struct {
	*Store[S]
	rules   Rules[S]
	fault   string
	latency time.Duration
	srv     *Server
}

// Launch starts a fresh app of the lab rules declare, playing fault, whose slow answers wait
// latencyMS milliseconds; the lab's instance is wrap of it, served by routes of the instance
// on an ephemeral port of host (see Listen). A lab with more to start than one server (a
// second origin, folders) uses NewApp and Serve instead.
func Launch[S any, I any](rules Rules[S], host, fault string, latencyMS int, wrap func(*App[S]) I, routes func(I) http.Handler) (I, error) {
	var zero I
	app, err := NewApp(rules, fault, latencyMS)
	if err != nil {
		return zero, err
	}
	in := wrap(app)
	if err := app.Serve(host, routes(in)); err != nil {
		return zero, err
	}
	return in, nil
}

// NewApp makes an app of the lab rules declare, playing fault (one of rules.Faults), whose
// store starts at the initial state and changes only through the transition function, and
// whose slow answers wait latencyMS milliseconds. It serves nothing until Serve.
func NewApp[S any](rules Rules[S], fault string, latencyMS int) (*App[S], error) {
	if err := rules.checkFault(fault); err != nil {
		return nil, err
	}
	if latencyMS < 0 {
		return nil, fmt.Errorf("%s lab latency %d ms: want 0 or more", rules.Lab, latencyMS)
	}
	return &App[S]{Store: NewStore(rules.Initial(), rules.Apply), rules: rules, fault: fault,
		latency: time.Duration(latencyMS) * time.Millisecond}, nil
}

// Serve serves h on an ephemeral port of host (see Listen).
func (a *App[S]) Serve(host string, h http.Handler) error {
	srv, err := Serve(a.rules.Lab+" lab", host, h)
	if err != nil {
		return err
	}
	a.srv = srv
	return nil
}

// Fault is the fault mode the app plays.
func (a *App[S]) Fault() string { return a.fault }

// Wait waits the app's latency before a slow answer and reports true, or false as soon as
// the request's client leaves instead.
func (a *App[S]) Wait(r *http.Request) bool {
	t := time.NewTimer(a.latency)
	defer t.Stop()
	select {
	case <-t.C:
		return r.Context().Err() == nil
	case <-r.Context().Done():
		return false
	}
}

// Check evaluates the completion gate on the app's state now, and whether that state makes
// further waiting pointless.
func (a *App[S]) Check() agent.Check { return a.rules.Check(a.State()) }

// Settler takes the app's state now and returns whether waiting on a gate evaluated after it
// is pointless (see Rules.Settle): a task file's own gate gets the app's refusals this way.
// The state is taken first so that a gate read a moment later (over HTTP) is never judged
// against a state newer than it: a notice that arrived in between would otherwise look like
// a notice shown for a save that failed the gate.
func (a *App[S]) Settler() func(agent.Gate) (agent.Terminal, string) {
	s := a.State()
	return func(g agent.Gate) (agent.Terminal, string) { return a.rules.Settle(s, g) }
}

// URL is the app's start page.
func (a *App[S]) URL() string { return a.srv.URL() }

// Quiesce waits until no request is being handled, or ctx ends.
func (a *App[S]) Quiesce(ctx context.Context) error { return a.srv.Quiesce(ctx) }

// Close stops the app: from then on nothing is logged, and late requests fail.
func (a *App[S]) Close() error {
	a.Store.Close()
	return a.srv.Close()
}

// PageEvent is what a lab's page posts to its events endpoint.
type PageEvent struct {
	Type string            `json:"type"`
	Data map[string]string `json:"data"`
}

// PageEvents handles the events a lab's page reports (POST /api/events): each is logged
// once the transition function accepts it; a type the page may not post (allowed says which
// it may: the others only the server logs) is refused.
func (a *App[S]) PageEvents(allowed map[string]bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var ev PageEvent
		if err := ReadJSON(r, &ev); err != nil {
			WriteError(w, err)
			return
		}
		if !allowed[ev.Type] {
			WriteError(w, fmt.Errorf("event type %q cannot be posted by the page", ev.Type))
			return
		}
		if err := a.Log(ev.Type, ev.Data); err != nil {
			WriteError(w, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}
}
