package labkit

import (
	"context"
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
