package session

import (
	"context"
	"errors"
	"sync"

	"observatory/backend/agent"
)

// ErrLeft ends an attempt whose agent went away (its client disconnected, the session
// closed) while the attempt waited for its next action: the attempt ends cancelled.
var ErrLeft = errors.New("the agent left the session")

// Result is what came of one action the agent asked for.
type Result struct {
	// Step is the action's recorded step; nil when the attempt ended before recording one.
	Step *agent.Step
	// Ended is the attempt, judged and recorded, when the action ended it (or it had ended).
	Ended *agent.Attempt
}

// call is one proposal on its way to the executor, and where its result goes.
type call struct {
	proposal agent.Proposal
	// index is the step the proposal becomes: the attempt's steps when it was taken.
	index  int
	result chan Result // buffered: the executor never waits on a caller gone away
}

// planner is one attempt's agent.Driven planner: Next hands the executor the agent's next
// action, and hands the previous action's caller its recorded step.
type planner struct {
	source agent.ClaimSource
	slug   string // the attempt's
	calls  chan *call
	left   <-chan struct{}

	ready     chan struct{} // closed at the first Next: the page is loaded and observed
	readyOnce sync.Once
	ended     chan struct{} // closed once the attempt is judged and recorded
	// mu guards the fields below.
	mu      sync.Mutex
	page    agent.Page
	history []agent.Step
	pending *call
	claim   *agent.Claim
	attempt agent.Attempt
	// start is the address the attempt began at: its first observation's.
	start string
}

func newPlanner(source agent.ClaimSource, slug string, left <-chan struct{}) *planner {
	return &planner{source: source, slug: slug, calls: make(chan *call), left: left, ready: make(chan struct{}), ended: make(chan struct{})}
}

// Next answers the previous action's call with its recorded step, then waits for the agent's
// next action. It ends with the attempt's context (a budget, the time limit, a stop) or
// with ErrLeft when the agent leaves.
func (p *planner) Next(ctx context.Context, sample agent.Sample, history []agent.Step) (agent.Proposal, error) {
	p.readyOnce.Do(func() {
		p.mu.Lock()
		p.start = sample.URL
		p.mu.Unlock()
		close(p.ready)
	})
	p.mu.Lock()
	p.history = history
	if c := p.pending; c != nil && len(history) > c.index {
		s := history[c.index]
		c.result <- Result{Step: &s}
		p.pending = nil
	}
	p.mu.Unlock()
	select {
	case c := <-p.calls:
		p.mu.Lock()
		c.index, p.pending = len(history), c
		p.mu.Unlock()
		return c.proposal, nil
	case <-ctx.Done():
		return agent.Proposal{}, context.Cause(ctx)
	case <-p.left:
		return agent.Proposal{}, errors.Join(ErrLeft, context.Canceled)
	}
}

// Replans: an action policy holds, or whose target matches no element or several, goes
// back to the agent, who decides what to do instead.
func (p *planner) Replans() bool { return true }

// TakesErrors: an action that fails or is refused is the agent's to handle, as a tool error
// with the page kept; it never ends the attempt.
func (p *planner) TakesErrors() bool { return true }

// Bind keeps the attempt's page for the agent's looks between actions, and has it keep a
// JavaScript dialog open for the agent to answer, as Playwright MCP does.
func (p *planner) Bind(page agent.Page) {
	if k, ok := page.(agent.DialogKeeper); ok {
		k.KeepDialogs()
	}
	p.mu.Lock()
	p.page = page
	p.mu.Unlock()
}

// Ended answers a call still waiting with the attempt that ended, and its step if one was
// recorded. The attempt is marked ended first, so that the caller's next call, however soon,
// starts the next attempt rather than reaching this one.
func (p *planner) Ended(a agent.Attempt) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.attempt = a
	close(p.ended)
	if c := p.pending; c != nil {
		r := Result{Ended: &a}
		if c.index < len(a.Steps) {
			r.Step = &a.Steps[c.index]
		}
		c.result <- r
		p.pending = nil
	}
}

// Claim is what the agent said of the attempt: its done call's claim, or "not done" when it
// never said done.
func (p *planner) Claim() *agent.Claim {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.claim == nil {
		return &agent.Claim{Source: p.source}
	}
	c := *p.claim
	return &c
}

// setClaim records the agent's claim, before the action that asks the gate.
func (p *planner) setClaim(c agent.Claim) {
	c.Source = p.source
	p.mu.Lock()
	p.claim = &c
	p.mu.Unlock()
}

// live reports whether the attempt has started and not ended.
func (p *planner) live() bool {
	select {
	case <-p.ended:
		return false
	default:
	}
	select {
	case <-p.ready:
		return true
	default:
		return false
	}
}

// view is the attempt's page (nil before it opened) and its steps so far.
func (p *planner) view() (agent.Page, []agent.Step) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.page, p.history
}

// endedAttempt is the attempt once it has ended.
func (p *planner) endedAttempt() agent.Attempt {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.attempt
}
