package browser

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strconv"
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

var inputsJS = "(" + pageScript(inputsSrc) + ")(" + strconv.Quote(inputsMark()) + ")"

// inputsMark is the name under which inputs.js marks a window it listens in: random for each
// process, so that a page cannot set it first to keep its inputs from being recorded.
func inputsMark() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "__observatory_" + hex.EncodeToString(b)
}

// inputBinding is the function inputs.js reports each input to.
const inputBinding = "__observatoryInput"

// inputsSettle is how long a reported input is held before it is passed on: the binding's
// calls arrive in any order, and are put back in the order the page stamped them.
const inputsSettle = 150 * time.Millisecond

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
			if in, at, ok := inputOf(args); ok {
				q.add(in, at, false)
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
		q.add(agent.Input{Kind: agent.ActNavigate, Value: r.URL(), URL: pg.URL()}, time.Now(), true)
	})
}

// inputOf reads what inputs.js reported, and when the page says it happened; false for
// anything else.
func inputOf(args []any) (agent.Input, time.Time, bool) {
	if len(args) != 1 {
		return agent.Input{}, time.Time{}, false
	}
	raw, err := json.Marshal(args[0])
	if err != nil {
		return agent.Input{}, time.Time{}, false
	}
	var r struct {
		Kind  string    `json:"kind"`
		Role  string    `json:"role"`
		Name  string    `json:"name"`
		Value string    `json:"value"`
		URL   string    `json:"url"`
		Box   agent.Box `json:"box"`
		At    float64   `json:"at"` // ms since the epoch
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return agent.Input{}, time.Time{}, false
	}
	kind := agent.ActionKind(r.Kind)
	switch kind {
	case agent.ActClick, agent.ActFill, agent.ActSelect, agent.ActPress:
	default:
		return agent.Input{}, time.Time{}, false
	}
	at := time.UnixMicro(int64(r.At * 1000))
	return agent.Input{Kind: kind, Target: agent.Target{Role: r.Role, Name: r.Name}, Value: r.Value, URL: r.URL, Box: &r.Box}, at, true
}

// inputQueue holds the inputs reported and not yet taken, in the order they happened,
// however many arrive while the executor records a step: none is dropped and no page waits.
type inputQueue struct {
	mu        sync.Mutex
	items     []queued
	lastInput time.Time
	wake      chan struct{}
}

// queued is an input, when it happened and when it arrived.
type queued struct {
	in          agent.Input
	at, arrived time.Time
}

// add queues in, which happened at; a navigation (nav) soon after an input is that input's
// doing and is left out.
func (q *inputQueue) add(in agent.Input, at time.Time, nav bool) {
	q.mu.Lock()
	if nav && at.Sub(q.lastInput) < inputNavigationGap {
		q.mu.Unlock()
		return
	}
	if !nav && at.After(q.lastInput) {
		q.lastInput = at
	}
	i := len(q.items)
	for i > 0 && q.items[i-1].at.After(at) {
		i--
	}
	q.items = slices.Insert(q.items, i, queued{in: in, at: at, arrived: time.Now()})
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// next is the first input once it has settled, or how long until it does (0: none queued).
func (q *inputQueue) next() (*agent.Input, time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return nil, 0
	}
	if wait := inputsSettle - time.Since(q.items[0].arrived); wait > 0 {
		return nil, wait
	}
	in := q.items[0].in
	q.items = q.items[1:]
	return &in, 0
}

// feed sends the queued inputs to out in order until ctx ends, then closes out.
func (q *inputQueue) feed(ctx context.Context, out chan<- agent.Input) {
	defer close(out)
	for {
		in, wait := q.next()
		if in == nil {
			var later <-chan time.Time
			if wait > 0 {
				later = time.After(wait)
			}
			select {
			case <-q.wake:
			case <-later:
			case <-ctx.Done():
				return
			}
			continue
		}
		select {
		case out <- *in:
		case <-ctx.Done():
			return
		}
	}
}
