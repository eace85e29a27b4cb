// Package apierror is how a service error crosses to the UI, over HTTP (`serve`) and Wails (the
// desktop) alike: a kind the UI can act on, the message, and where in the caller's input the
// problem lies. Errors are classified in one place (Of), and each kind has one HTTP status.
package apierror

import (
	"context"
	"errors"

	"observatory/backend/agent"
	"observatory/backend/browser"
	"observatory/backend/planner/model"
	"observatory/backend/runner"
	"observatory/backend/store"
)

// Kind says what sort of failure an error is, so that the UI can say what to do about it.
type Kind string

// The kinds of error.
const (
	// Invalid is a request the service refuses as given: a bad field, a refused file. Fix
	// the input (Path says where) and try again.
	Invalid Kind = "invalid"
	// NotFound is a run, attempt or file that does not exist (any more).
	NotFound Kind = "not_found"
	// Conflict is a request the current state refuses: a run already going, a run still
	// being written. Wait, or stop what is going.
	Conflict Kind = "conflict"
	// Unavailable is something the request needs that cannot be had here or now: a browser,
	// a model, a native dialog. Set it up, or try again later.
	Unavailable Kind = "unavailable"
	// Cancelled is work stopped before it finished: by the user, the kill switch or a closed
	// window.
	Cancelled Kind = "cancelled"
	// Internal is a failure of Observatory itself or of the machine (a disk, the database).
	Internal Kind = "internal"
)

// Error is a service error as the UI receives it. Its JSON is the wire form over both
// transports: {"kind", "message", "path"}.
type Error struct {
	Kind    Kind   `json:"kind"`
	Message string `json:"message"`
	// Path locates the problem in the caller's input ("plan[1].target", "attempts[0].events[2]",
	// "line 4"); empty when the problem has no place.
	Path string `json:"path,omitempty"`
}

// Error is the message.
func (e *Error) Error() string { return e.Message }

// New is an error of the given kind: a service's own sentinel errors are made with it, so
// errors.Is still finds them and Of knows their kind.
func New(kind Kind, message string) *Error { return &Error{Kind: kind, Message: message} }

// Located is an error that knows where in the input it lies: a task file's field, a run
// file's JSON path or line, a bundle's entry.
type Located interface {
	error
	Location() string
}

// Of classifies err for the UI: its kind, its whole message (with the context the services
// wrapped around it), and the location of the innermost located error. An error nothing
// classifies is Invalid: the services' own refusals of what they were asked are the common
// case, and the transports have always answered them as such.
func Of(err error) Error {
	out := Error{Kind: Invalid, Message: err.Error()}
	var typed *Error
	var located Located
	switch {
	case errors.As(err, &typed):
		out.Kind = typed.Kind
		out.Path = typed.Path
	case errors.Is(err, context.Canceled), errors.Is(err, agent.ErrStopped):
		out.Kind = Cancelled
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrNoAttempt), errors.Is(err, store.ErrNoHistory):
		out.Kind = NotFound
	case errors.Is(err, store.ErrRunning):
		out.Kind = Conflict
	case errors.Is(err, runner.ErrNoEndpoint), errors.Is(err, browser.ErrNoStream), errors.Is(err, browser.ErrUnreachable),
		errors.Is(err, model.ErrNoModel):
		out.Kind = Unavailable
	}
	if out.Path == "" && errors.As(err, &located) {
		out.Path = located.Location()
	}
	return out
}

// Status is the HTTP status of an error of kind k: the one place kinds meet HTTP.
func (k Kind) Status() int {
	switch k {
	case NotFound:
		return 404
	case Conflict:
		return 409
	case Unavailable:
		return 503
	case Cancelled:
		return 499 // the client's request ended before its answer, as proxies report it
	case Internal:
		return 500
	}
	return 422
}
