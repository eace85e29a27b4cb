package labkit

import (
	"context"
	"fmt"
	"net/http"
)

// App is one running copy of a lab's app: the store of its authoritative state (whose State,
// Events, Log and Tx it offers) and the server of its page and API. A lab's Instance embeds
// it and adds its fault, its handlers and its gate.
type App[S any] struct {
	*Store[S]
	srv *Server
}

// NewApp makes an app whose store starts at initial and changes only through apply. It
// serves nothing until Serve.
func NewApp[S any](initial S, apply Apply[S]) App[S] {
	return App[S]{Store: NewStore(initial, apply)}
}

// Serve serves h on an ephemeral port of host (see Listen); name says whose app it is in
// errors ("booking lab").
func (a *App[S]) Serve(name, host string, h http.Handler) error {
	srv, err := Serve(name, host, h)
	if err != nil {
		return err
	}
	a.srv = srv
	return nil
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
