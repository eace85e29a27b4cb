package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"observatory/backend/agent"
)

// Endpoint is one place attempts can get a browser: Chromium launched here, a Playwright
// browser server, or a Chromium reached over CDP. Capacity is how many attempts it takes at
// once.
type Endpoint struct {
	Name     string
	Launch   Launcher
	Capacity int
}

// LocalEndpoint names the endpoint of a run without remote browsers: Chromium launched here.
const LocalEndpoint = "local Chromium"

// ErrNoEndpoint means every browser endpoint of the run is down.
var ErrNoEndpoint = errors.New("no browser endpoint is left")

// pool hands attempts a browser from the endpoint with the most free capacity. Each
// endpoint's browser is launched (or connected) on first use and again after it dies; an
// endpoint whose browser cannot be had is marked down and the attempts go to the others.
type pool struct {
	mu        sync.Mutex
	freed     chan struct{} // closed and replaced whenever capacity frees up
	endpoints []*endpointState
}

type endpointState struct {
	Endpoint
	browser agent.Browser
	retired []agent.Browser
	running int
	down    error
}

func newPool(eps []Endpoint) *pool {
	p := &pool{freed: make(chan struct{})}
	for _, e := range eps {
		p.endpoints = append(p.endpoints, &endpointState{Endpoint: e})
	}
	return p
}

// lease is an attempt's hold on a unit of one endpoint's capacity and the browser it runs in.
type lease struct {
	pool     *pool
	endpoint *endpointState
	browser  agent.Browser
}

// newPage opens the attempt's page. A browser found dead here died after the endpoint's last
// attempt ended, before word of it arrived; nothing of this attempt has happened in it, so it
// is replaced once and the page opened in the new one.
func (l *lease) newPage(ctx context.Context, opts agent.PageOptions) (agent.Page, error) {
	page, err := l.browser.NewPage(ctx, opts)
	if !errors.Is(err, agent.ErrBrowserGone) || ctx.Err() != nil {
		return page, err
	}
	b, renewErr := l.pool.renew(ctx, l.endpoint, l.browser)
	if renewErr != nil {
		return nil, fmt.Errorf("%w; starting another failed: %w", err, renewErr)
	}
	l.browser = b
	return b.NewPage(ctx, opts)
}

// acquire leases a browser from the endpoint with the most free capacity, waiting for some.
func (p *pool) acquire(ctx context.Context) (*lease, error) {
	for {
		p.mu.Lock()
		e := p.freest()
		if e == nil {
			err := p.allDown()
			wait := p.freed
			p.mu.Unlock()
			if err != nil {
				return nil, err
			}
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		if err := p.ready(ctx, e); err != nil {
			p.mu.Unlock()
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		e.running++
		l := &lease{pool: p, endpoint: e, browser: e.browser}
		p.mu.Unlock()
		return l, nil
	}
}

// ready gives e a live browser, launching (or connecting) one when it has none or the one it
// has is known to have died. A launch that fails for any reason but ctx marks e down. Call it
// with p.mu held.
func (p *pool) ready(ctx context.Context, e *endpointState) error {
	if e.browser != nil && gone(e.browser) { // it died after its last attempt ended
		e.retired = append(e.retired, e.browser)
		e.browser = nil
	}
	if e.browser != nil {
		return nil
	}
	b, err := e.Launch(ctx)
	if err != nil {
		if ctx.Err() == nil {
			e.down = err
			p.wake()
		}
		return err
	}
	e.browser = b
	return nil
}

// renew replaces dead, the browser of e an attempt found dead before it did anything in it,
// and returns e's live browser: a new one, or the one another attempt already put in its
// place. The attempt keeps the capacity it holds.
func (p *pool) renew(ctx context.Context, e *endpointState, dead agent.Browser) (agent.Browser, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.browser == dead {
		e.retired = append(e.retired, dead)
		e.browser = nil
	}
	if err := p.ready(ctx, e); err != nil {
		return nil, err
	}
	return e.browser, nil
}

// release gives back the capacity l held; gone says its browser died, so the endpoint's
// next attempt needs a new one.
func (p *pool) release(l *lease, gone bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e := l.endpoint
	e.running--
	if gone && e.browser == l.browser {
		e.browser = nil
		e.retired = append(e.retired, l.browser)
	}
	p.wake()
}

// freest is the endpoint that is up and has the most free capacity, or nil.
func (p *pool) freest() *endpointState {
	var best *endpointState
	for _, e := range p.endpoints {
		if e.down != nil || e.running >= max(e.Capacity, 1) {
			continue
		}
		if best == nil || max(e.Capacity, 1)-e.running > max(best.Capacity, 1)-best.running {
			best = e
		}
	}
	return best
}

// allDown is ErrNoEndpoint with every endpoint's reason when none is up, else nil.
func (p *pool) allDown() error {
	var why []string
	for _, e := range p.endpoints {
		if e.down == nil {
			return nil
		}
		why = append(why, fmt.Sprintf("%s: %v", e.Name, e.down))
	}
	return fmt.Errorf("%w (%s)", ErrNoEndpoint, strings.Join(why, "; "))
}

func (p *pool) wake() {
	close(p.freed)
	p.freed = make(chan struct{})
}

// close closes every browser the pool launched or connected.
func (p *pool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.endpoints {
		for _, b := range append(e.retired, e.browser) {
			if b != nil {
				_ = b.Close()
			}
		}
		e.browser, e.retired = nil, nil
	}
}
