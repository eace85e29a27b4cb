package agent

import (
	"context"
	"errors"
)

// Errors a Page reports when resolving a target.
var (
	// ErrNoTarget means no element matched the target.
	ErrNoTarget = errors.New("no element matches the target")
	// ErrAmbiguousTarget means several elements matched; the executor never picks the first.
	ErrAmbiguousTarget = errors.New("several elements match the target")
	// ErrBrowserGone means the browser or page closed or crashed under the executor.
	ErrBrowserGone = errors.New("the browser closed or crashed")
)

// PageOptions are per-page recording choices.
type PageOptions struct {
	// MediaDir is where video, trace and screenshots go; empty records nothing.
	MediaDir string
	// Name is the file name stem of the page's video and trace ("saves-normally" gives
	// saves-normally.webm and saves-normally.trace.zip).
	Name        string
	Video       bool
	Screenshots bool
	// Trace records a Playwright trace, which opens in Playwright's own trace viewer.
	Trace bool
}

// Recording names what a closed page left in its MediaDir; empty names were not recorded.
type Recording struct {
	Video string
	Trace string
}

// Browser opens pages. One browser serves many attempts, each on its own page and context.
type Browser interface {
	NewPage(ctx context.Context, opts PageOptions) (Page, error)
	Close() error
}

// Page is one browser tab as the executor drives it.
type Page interface {
	// Goto loads url and waits until it has loaded.
	Goto(ctx context.Context, url string) error
	// Observe samples the page in one round trip. With screenshots on, it also stores an
	// image and sets Sample.Screenshot.
	Observe(ctx context.Context) (Sample, error)
	// Resolve counts the elements matching role and name exactly. It returns ErrNoTarget for
	// none, ErrAmbiguousTarget for several and nil for exactly one.
	Resolve(ctx context.Context, role, name string) error
	// Act carries out a click, fill, select or submit on the control role[name], which the
	// caller has resolved to exactly one element.
	Act(ctx context.Context, kind ActionKind, role, name, value string) error
	// Stop aborts everything the page still has in flight, as the browser's Stop button
	// does; the page stays open and observable. The executor calls it when it gives up, so
	// that a save it no longer waits for cannot commit later. Like that button, it may be
	// called while another call on the page is in progress.
	Stop(ctx context.Context) error
	// Close closes the page, aborting anything it still has in flight, and returns what it
	// recorded, as paths relative to MediaDir.
	Close() (Recording, error)
}

// Check is the oracle's answer at one moment: the gate, and whether the app has settled in a
// way that makes further waiting pointless.
type Check struct {
	Gate Gate `json:"gate"`
	// Settled is empty while waiting still makes sense; otherwise the terminal state the app
	// forces (Rejected for a refused save, Failed for a notice without a record) and why.
	Settled       Terminal `json:"settled,omitempty"`
	SettledReason string   `json:"settled_reason,omitempty"`
}

// Instance is one running copy of a lab, fresh for each attempt, so that nothing a cancelled
// attempt still sends can reach a newer one.
type Instance interface {
	// URL is the app's start page.
	URL() string
	// Check evaluates the completion gate against the lab's authoritative state now.
	Check(task Task) Check
	// Quiesce waits until no request is still being handled, so the store stops changing.
	Quiesce(ctx context.Context) error
	// Events returns the app's ordered event log so far.
	Events() []Event
	// Close stops the instance; late requests from an abandoned page are refused.
	Close() error
}

// AttemptSpec is one scripted attempt a lab offers: its fault and the policies it runs with.
type AttemptSpec struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
	// Fault is the lab-specific fault mode the instance is started with.
	Fault  string `json:"fault"`
	Config Config `json:"config"`
}

// Lab is a synthetic web app the executor can be pointed at, with everything needed to judge
// an attempt from recorded events alone (so import can replay and recompute).
type Lab interface {
	Name() string
	Task() Task
	Plan() Plan
	Attempts() []AttemptSpec
	// Start serves a fresh instance with the given fault and latency on 127.0.0.1.
	Start(fault string, latencyMS int) (Instance, error)
	// Replay validates an event log through the lab's transition function; an illegal order
	// or an unknown event is an error naming the event.
	Replay(events []Event) error
	// Judge computes all verdicts from the events and the observed steps. It is the same
	// function live and on import.
	Judge(task Task, events []Event, steps []Step) (Verdicts, error)
	// Frames rebuilds the app's state after each event through the same transition function
	// as Replay: one Frame for the initial state, then one per event.
	Frames(task Task, events []Event) ([]Frame, error)
}

// Frame is a lab's state after one event of a replay, with the completion gate evaluated on it.
type Frame struct {
	Index int `json:"index"`
	// Event is the event that led to this state; nil for the initial state (Index 0).
	Event *Event `json:"event"`
	// State is the lab's own state, which the UI shows as key/value text.
	State any  `json:"state"`
	Gate  Gate `json:"gate"`
}
