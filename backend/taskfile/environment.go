package taskfile

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"

	"observatory/backend/agent"
	"observatory/backend/oracle"
)

// environment is one attempt's app, the lab's fresh copy or the user's site, with the reader
// that asks the task's conditions.
type environment struct {
	s       *suite
	app     LabApp // nil for a site of the user's
	start   string
	origins []string
	reader  *oracle.Reader
	// secrets are the values of the environment variables the task reads.
	secrets []string
}

var (
	_ agent.Environment    = (*environment)(nil)
	_ agent.Secretive      = (*environment)(nil)
	_ agent.Folders        = (*environment)(nil)
	_ agent.LinkLocalReach = (*environment)(nil)
)

// start launches the lab, if the task has one, and resolves the task's URLs against it.
func (s *suite) start(spec agent.AttemptSpec, secrets []string) (*environment, error) {
	e := &environment{s: s, start: s.task.StartURL, origins: slices.Clone(s.task.Origins), secrets: secrets}
	base := s.base
	if s.lab == nil {
		if spec.Fault != "" || len(spec.Params) > 0 {
			return nil, fmt.Errorf("task %s runs against a site of its own, which takes no fault or parameters", s.task.Name)
		}
	} else {
		app, err := s.lab.Launch(spec.Fault, spec.Params)
		if err != nil {
			return nil, fmt.Errorf("starting the %s lab: %w", s.lab.Name(), err)
		}
		if base, err = url.Parse(app.URL()); err != nil {
			_ = app.Close()
			return nil, fmt.Errorf("the %s lab's address %q: %w", s.lab.Name(), app.URL(), err)
		}
		e.app = app
		e.origins = append([]string{oracle.Origin(base)}, e.origins...)
		if ref, err := url.Parse(e.start); err == nil && !ref.IsAbs() {
			e.start = base.ResolveReference(ref).String()
		}
	}
	e.reader = oracle.NewReader(oracle.Site{Base: base, Origins: e.origins, LookupEnv: s.lookupEnv, Secrets: secrets, LinkLocal: s.trust.LinkLocal})
	return e, nil
}

// Secrets are the values of the environment variables the task reads: no record shows them.
func (e *environment) Secrets() []string { return slices.Clone(e.secrets) }

// StartURL is where the attempt begins, absolute.
func (e *environment) StartURL() string { return e.start }

// Origins are the task's origins, and the lab's own.
func (e *environment) Origins() []string { return e.origins }

// Uploads is the folder upload steps take files from; empty when the task names none.
func (e *environment) Uploads() string { return e.s.task.Uploads }

// Downloads is the folder downloads are saved in; empty when the task names none.
func (e *environment) Downloads() string { return e.s.task.Downloads }

// AllowsLinkLocal says whether the user let the task reach link-local and metadata hosts.
func (e *environment) AllowsLinkLocal() bool { return e.s.trust.LinkLocal }

// StorageState is the Playwright storage-state file pages start signed in with; empty for
// none.
func (e *environment) StorageState() string { return e.s.storageState }

// Check asks the gate's conditions now and judges them, exactly as Judge will from the
// recorded answers; a lab may say its state makes waiting pointless.
func (e *environment) Check(ctx context.Context, observe agent.Observer) agent.Check {
	var settle func(agent.Gate) (agent.Terminal, string)
	if e.app != nil {
		settle = e.app.Settler() // the state before the answers, never after them
	}
	answers := e.reader.Ask(ctx, e.s.success, observe)
	byID := make(map[string]*agent.Answer, len(answers))
	for i := range answers {
		byID[answers[i].Condition] = &answers[i]
	}
	c := agent.Check{Gate: agent.NewGate(judgeAll(e.s.success, byID))}
	if settle != nil {
		c.Settled, c.SettledReason = settle(c.Gate)
	}
	if !c.Gate.Done {
		c.Unanswerable = refusal(e.s.success, byID)
	}
	return c
}

// refusal names the first of conds whose oracle refused the connection, and why, once; ""
// when none did. Nothing listening there does not change by waiting (oracle.ErrRefused).
func refusal(conds []oracle.Condition, byID map[string]*agent.Answer) string {
	for _, c := range conds {
		if a := byID[c.ID]; a != nil && oracle.Refused(*a) {
			return fmt.Sprintf("“%s” could not be confirmed: %s", c.Label, a.Error)
		}
	}
	return ""
}

// Quiesce waits for the lab to finish what it is handling; a user's site is not waited on.
func (e *environment) Quiesce(ctx context.Context) error {
	if e.app == nil {
		return nil
	}
	return e.app.Quiesce(ctx)
}

// Events are the lab's event log; a user's site keeps none.
func (e *environment) Events() []agent.Event {
	if e.app == nil {
		return nil
	}
	return e.app.Events()
}

// Answers asks every recorded condition (the gate's, the truth's, page signals') once more.
func (e *environment) Answers(ctx context.Context, observe agent.Observer) []agent.Answer {
	return e.reader.Ask(ctx, e.s.asked(), observe)
}

// Close closes the reader's connections and stops the lab.
func (e *environment) Close() error {
	err := e.reader.Close()
	if e.app != nil {
		err = errors.Join(err, e.app.Close())
	}
	return err
}
