package taskfile

import (
	"context"
	"errors"

	"observatory/backend/agent"
)

// Lab is what a task file needs of a built-in lab it names: a fresh app for each attempt,
// the ground truth its event log rebuilds, and its transition function to replay that log.
// The composition root passes the registry (Options.Labs), so this package knows no lab.
type Lab interface {
	agent.Replayer
	Name() string
	// Launch serves a fresh copy of the app with a fault mode and the lab's parameters.
	Launch(fault string, params map[string]int) (LabApp, error)
	// Truth is the ground truth an event log rebuilds, named and with its evidence.
	Truth(events []agent.Event) (agent.Signal, error)
	// On returns the lab serving its app on host instead of 127.0.0.1.
	On(host string) Lab
}

// LabApp is one running copy of a lab's app, fresh for each attempt.
type LabApp interface {
	// URL is the app's base address.
	URL() string
	// Quiesce waits until no request is still being handled, so the store stops changing.
	Quiesce(ctx context.Context) error
	// Events returns the app's ordered event log so far.
	Events() []agent.Event
	// Settler takes the app's state now and returns what it says of a gate evaluated after
	// it: whether waiting is pointless, and why; "" while waiting still makes sense.
	Settler() func(g agent.Gate) (agent.Terminal, string)
	// Close stops the app.
	Close() error
}

// FindLab finds a built-in lab by name, or says which there are.
type FindLab func(name string) (Lab, error)

// lab looks a lab up by name.
func (o Options) lab(name string) (Lab, error) {
	if o.Labs == nil {
		return nil, errors.New("this build knows no built-in labs")
	}
	return o.Labs(name)
}
