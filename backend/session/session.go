package session

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"observatory/backend/agent"
)

// ErrClosed is the answer to an action asked for after the session closed.
var ErrClosed = errors.New("the session has ended")

// Session is one agent's session over a run: the run's attempt sequence and the planner of
// each attempt. Calls are taken one at a time, in the order they come.
type Session struct {
	source agent.ClaimSource
	specs  []agent.AttemptSpec

	// mu holds one call at a time: an action waits for its step, a look never overlaps one.
	mu      sync.Mutex
	current *planner
	started int
	// want carries a caller's request for the next attempt to the run's Sequence.Next;
	// begun carries the attempt's planner back once the runner made it.
	want  chan struct{}
	begun chan *planner

	left      chan struct{}
	leaveOnce sync.Once
}

// New returns a session whose attempts follow specs in order, the last one again once they
// are spent (named slug-2, slug-3…); source names the front door in the agent's claims.
func New(specs []agent.AttemptSpec, source agent.ClaimSource) (*Session, error) {
	if len(specs) == 0 {
		return nil, errors.New("a session needs at least one attempt to run")
	}
	return &Session{source: source, specs: specs, want: make(chan struct{}), begun: make(chan *planner, 1), left: make(chan struct{})}, nil
}

// Next is the run's runner.Sequence: it waits until the agent acts with no attempt under way,
// and returns the attempt to start; false once the agent has left.
func (s *Session) Next(ctx context.Context) (agent.AttemptSpec, bool) {
	select {
	case <-s.want:
	case <-s.left:
		return agent.AttemptSpec{}, false
	case <-ctx.Done():
		return agent.AttemptSpec{}, false
	}
	n := s.started
	s.started++
	spec := s.specs[min(n, len(s.specs)-1)]
	if n >= len(s.specs) {
		spec.Slug += "-" + strconv.Itoa(n-len(s.specs)+2)
	}
	return spec, true
}

// Planner is the run's planner of one attempt: the session's, fresh for each.
func (s *Session) Planner(spec agent.AttemptSpec) agent.Planner {
	p := newPlanner(s.source, spec.Slug, s.left)
	s.begun <- p
	return p
}

// Leave ends the session: the attempt under way ends cancelled at its next wait for an
// action, and no attempt starts after it. It is safe to call more than once.
func (s *Session) Leave() {
	s.leaveOnce.Do(func() { close(s.left) })
}

// Left is closed once the agent has left.
func (s *Session) Left() <-chan struct{} { return s.left }

// attempt is the attempt under way, started (its page loaded) when there is none. ended is
// closed if the run stops before the attempt starts.
func (s *Session) attempt(ctx context.Context, stopped <-chan struct{}) (*planner, error) {
	if p := s.current; p != nil && p.live() {
		return p, nil
	}
	select {
	case s.want <- struct{}{}:
	case <-s.left:
		return nil, ErrClosed
	case <-stopped:
		return nil, ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	var p *planner
	select {
	case p = <-s.begun:
	case <-stopped:
		return nil, ErrClosed
	}
	s.current = p
	select {
	case <-p.ready:
		return p, nil
	case <-p.ended:
		a := p.endedAttempt()
		return nil, fmt.Errorf("attempt %s ended before it could act (%s): %s", a.Slug, a.Terminal, a.Reason)
	case <-stopped:
		return nil, ErrClosed
	}
}

// Act carries out one action in the attempt under way (starting one if none is) and returns
// its recorded step, and the attempt if the action ended it. stopped is closed once the run
// has ended, so no call outlives it. A caller that gives up (ctx ends) leaves the action to
// run its course: its step is recorded all the same.
func (s *Session) Act(ctx context.Context, stopped <-chan struct{}, prop agent.Proposal) (Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.attempt(ctx, stopped)
	if err != nil {
		return Result{}, err
	}
	return p.do(ctx, stopped, prop)
}

// Done records the agent's claim and asks the gate: a verify step, which waits on the
// completion gate under the attempt's wait policy and ends the attempt. It returns the
// judged attempt. Done with no attempt under way has nothing to judge.
func (s *Session) Done(ctx context.Context, stopped <-chan struct{}, claim agent.Claim) (agent.Attempt, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.current
	if p == nil || !p.live() {
		return agent.Attempt{}, errors.New("no attempt is under way: act on the page first; your first browser action starts one")
	}
	p.setClaim(claim)
	verify := agent.Proposal{Action: agent.Action{ID: "task-done", Description: "The agent says it is done: ask the completion gate", Kind: agent.ActVerify},
		Reason: claim.Words}
	for _, prop := range []agent.Proposal{verify, {End: true}} { // End once policy held the verify
		r, err := p.do(ctx, stopped, prop)
		if err != nil {
			return agent.Attempt{}, err
		}
		if r.Ended != nil {
			return *r.Ended, nil
		}
	}
	return agent.Attempt{}, errors.New("the attempt did not end when its agent said done")
}

// Opened is the attempt under way as its agent is told of it.
type Opened struct {
	// Slug names the attempt.
	Slug string
	// StartURL is the absolute address the attempt began at, on its own copy of the app.
	StartURL string
}

// Open is the attempt the agent's next action runs in: the one under way, else one started
// now (its page loaded), so that what the agent is told of it holds when it acts.
func (s *Session) Open(ctx context.Context, stopped <-chan struct{}) (Opened, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.attempt(ctx, stopped)
	if err != nil {
		return Opened{}, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return Opened{Slug: p.slug, StartURL: p.start}, nil
}

// ErrNoAttempt is Peek's answer when no attempt is under way.
var ErrNoAttempt = errors.New("no attempt is under way")

// Look runs fn on the attempt's page and its steps so far while the executor waits for the
// agent's next action (starting an attempt if none is under way), so that looking never
// overlaps acting.
func (s *Session) Look(ctx context.Context, stopped <-chan struct{}, fn func(page agent.Page, steps []agent.Step) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, err := s.attempt(ctx, stopped)
	if err != nil {
		return err
	}
	return look(p, fn)
}

// Peek is Look on the attempt under way, if one is: it never starts one (ErrNoAttempt).
func (s *Session) Peek(fn func(page agent.Page, steps []agent.Step) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.current == nil || !s.current.live() {
		return ErrNoAttempt
	}
	return look(s.current, fn)
}

func look(p *planner, fn func(page agent.Page, steps []agent.Step) error) error {
	page, steps := p.view()
	if page == nil {
		return errors.New("the attempt has no page")
	}
	return fn(page, steps)
}

// do hands prop to the executor and waits for what came of it.
func (p *planner) do(ctx context.Context, stopped <-chan struct{}, prop agent.Proposal) (Result, error) {
	c := &call{proposal: prop, result: make(chan Result, 1)}
	select {
	case p.calls <- c:
	case <-p.ended:
		a := p.endedAttempt()
		return Result{Ended: &a}, nil
	case <-stopped:
		return Result{}, ErrClosed
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
	select {
	case r := <-c.result:
		return r, nil
	case <-stopped:
		return Result{}, ErrClosed
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
}
