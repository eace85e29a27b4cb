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

// acquire returns a browser and the endpoint it came from, waiting for free capacity.
func (p *pool) acquire(ctx context.Context) (agent.Browser, *endpointState, error) {
	for {
		p.mu.Lock()
		e := p.freest()
		if e == nil {
			err := p.allDown()
			wait := p.freed
			p.mu.Unlock()
			if err != nil {
				return nil, nil, err
			}
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
		}
		if e.browser != nil && gone(e.browser) { // it died after its last attempt ended
			e.retired = append(e.retired, e.browser)
			e.browser = nil
		}
		if e.browser == nil {
			b, err := e.Launch(ctx)
			if err != nil {
				if ctx.Err() != nil {
					p.mu.Unlock()
					return nil, nil, ctx.Err()
				}
				e.down = err
				p.wake()
				p.mu.Unlock()
				continue
			}
			e.browser = b
		}
		e.running++
		b := e.browser
		p.mu.Unlock()
		return b, e, nil
	}
}

// release gives back the capacity an attempt held; gone says its browser died, so the
// endpoint's next attempt needs a new one.
func (p *pool) release(e *endpointState, b agent.Browser, gone bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e.running--
	if gone && e.browser == b {
		e.browser = nil
		e.retired = append(e.retired, b)
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
