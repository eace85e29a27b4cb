package browser

import (
	"context"
	_ "embed"
	"encoding/json"
	"sync"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// inputsSrc records the inputs made in a page (see agent.Handover); inputsJS is it with the
// helpers, run in every document of the page's context.
//
//go:embed inputs.js
var inputsSrc string

var inputsJS = "(" + pageScript(inputsSrc) + ")()"

// inputBinding is the function inputs.js reports each input to.
const inputBinding = "__observatoryInput"

// inputNavigationGap is how soon after an input a navigation counts as that input's doing
// (a link clicked, a form submitted) rather than one the agent started itself.
const inputNavigationGap = 1500 * time.Millisecond

var _ agent.Handover = (*Page)(nil)

// DevToolsURL is the DevTools endpoint of the page's browser, empty when it offers none (see
// Options.DevTools and RemoteOptions.CDP).
func (p *Page) DevToolsURL() string { return p.b.devtools }

// WatchInputs records the trusted inputs made in every page of the page's context, as
// Playwright's codegen does (capture-phase listeners and a binding), and the main-frame
// navigations no input started. It reads only: the page's viewport, emulation and timing stay
// as they are.
func (p *Page) WatchInputs(ctx context.Context) (<-chan agent.Input, error) {
	q := &inputQueue{wake: make(chan struct{}, 1)}
	err := do(ctx, p.limits(), func() error {
		if err := p.bc.ExposeBinding(inputBinding, func(_ *playwright.BindingSource, args ...any) any {
			if in, ok := inputOf(args); ok {
				q.add(in, false)
			}
			return nil
		}); err != nil {
			return err
		}
		if err := p.bc.AddInitScript(playwright.Script{Content: playwright.String(inputsJS)}); err != nil {
			return err
		}
		watchNavigations(p.page, q)
		p.bc.OnPage(func(pg playwright.Page) { watchNavigations(pg, q) })
		for _, pg := range p.bc.Pages() { // documents loaded before the script was added
			if _, err := pg.Evaluate(inputsJS); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, p.fail("watch the page's inputs", err)
	}
	out := make(chan agent.Input)
	go q.feed(ctx, out)
	return out, nil
}

// watchNavigations reports the main-frame navigations of pg that no input started shortly
// before: those the agent made itself (a page.goto), blocked or not.
func watchNavigations(pg playwright.Page, q *inputQueue) {
	pg.OnRequest(func(r playwright.Request) {
		if !r.IsNavigationRequest() || r.RedirectedFrom() != nil || r.Frame() != pg.MainFrame() {
			return
		}
		q.add(agent.Input{Kind: agent.ActNavigate, Value: r.URL(), URL: pg.URL()}, true)
	})
}

// inputOf reads what inputs.js reported; false for anything else.
func inputOf(args []any) (agent.Input, bool) {
	if len(args) != 1 {
		return agent.Input{}, false
	}
	raw, err := json.Marshal(args[0])
	if err != nil {
		return agent.Input{}, false
	}
	var r struct {
		Kind  string    `json:"kind"`
		Role  string    `json:"role"`
		Name  string    `json:"name"`
		Value string    `json:"value"`
		URL   string    `json:"url"`
		Box   agent.Box `json:"box"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return agent.Input{}, false
	}
	kind := agent.ActionKind(r.Kind)
	switch kind {
	case agent.ActClick, agent.ActFill, agent.ActSelect, agent.ActPress:
	default:
		return agent.Input{}, false
	}
	return agent.Input{Kind: kind, Target: agent.Target{Role: r.Role, Name: r.Name}, Value: r.Value, URL: r.URL, Box: &r.Box}, true
}

// inputQueue holds the inputs reported and not yet taken, in order, however many arrive
// while the executor records a step: none is dropped and no page waits on it.
type inputQueue struct {
	mu        sync.Mutex
	items     []agent.Input
	lastInput time.Time
	wake      chan struct{}
}

// add queues in; a navigation (nav) soon after an input is that input's doing and is left out.
func (q *inputQueue) add(in agent.Input, nav bool) {
	q.mu.Lock()
	now := time.Now()
	if nav && now.Sub(q.lastInput) < inputNavigationGap {
		q.mu.Unlock()
		return
	}
	if !nav {
		q.lastInput = now
	}
	q.items = append(q.items, in)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// feed sends the queued inputs to out in order until ctx ends, then closes out.
func (q *inputQueue) feed(ctx context.Context, out chan<- agent.Input) {
	defer close(out)
	for {
		q.mu.Lock()
		var next *agent.Input
		if len(q.items) > 0 {
			in := q.items[0]
			q.items = q.items[1:]
			next = &in
		}
		q.mu.Unlock()
		if next == nil {
			select {
			case <-q.wake:
				continue
			case <-ctx.Done():
				return
			}
		}
		select {
		case out <- *next:
		case <-ctx.Done():
			return
		}
	}
}
