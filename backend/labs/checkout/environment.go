package checkout

import (
	"context"
	"net/url"

	"observatory/backend/agent"
)

// environment is one instance of the app as an attempt of the lab's own task runs against it.
type environment struct {
	in *Instance
}

var _ agent.Environment = (*environment)(nil)

func (e *environment) StartURL() string { return e.in.URL() }

func (e *environment) Origins() []string {
	u, err := url.Parse(e.in.URL())
	if err != nil {
		return nil
	}
	return []string{u.Scheme + "://" + u.Host}
}

func (e *environment) Check(context.Context, agent.Observer) agent.Check {
	return e.in.Check(Requested)
}

func (e *environment) Quiesce(ctx context.Context) error { return e.in.Quiesce(ctx) }

func (e *environment) Events() []agent.Event { return e.in.Events() }

// Answers is empty: the lab's own gate is judged from its event log alone.
func (e *environment) Answers(context.Context, agent.Observer) []agent.Answer { return nil }

func (e *environment) Close() error { return e.in.Close() }
