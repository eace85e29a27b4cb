package labkit

import (
	"context"
	"net/url"

	"observatory/backend/agent"
)

// Instance is one running copy of a lab's app, as an attempt runs against it: its start page,
// its requests in flight, its event log and its end, as App has them.
type Instance interface {
	// URL is the app's page, where an attempt starts.
	URL() string
	// Quiesce waits until the requests in flight are answered, or ctx ends.
	Quiesce(ctx context.Context) error
	// Events is the app's event log so far, in order.
	Events() []agent.Event
	// Close stops the app.
	Close() error
}

// Environment is an Instance as an attempt of its lab's own task runs against it: the attempt
// starts at the app's page, may load the app's origin alone, and is judged from the event
// log alone, so the oracle records no answers. A lab that offers more (folders, a
// reconciler) embeds it.
type Environment struct {
	Instance
	// Gate checks the completion gate on the app's state now.
	Gate func() agent.Check
}

var _ agent.Environment = Environment{}

// StartURL is the app's page.
func (e Environment) StartURL() string { return e.URL() }

// Origins is the app's own origin.
func (e Environment) Origins() []string {
	u, err := url.Parse(e.URL())
	if err != nil {
		return nil
	}
	return []string{u.Scheme + "://" + u.Host}
}

// Check is the gate on the app's state now; the page is not needed.
func (e Environment) Check(context.Context, agent.Observer) agent.Check { return e.Gate() }

// Answers is empty: a lab's own gate is judged from its event log alone.
func (e Environment) Answers(context.Context, agent.Observer) []agent.Answer { return nil }
