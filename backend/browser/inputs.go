package browser

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// inputsSrc records the inputs made in a page (see agent.Handover), in an isolated world of
// its own; a recorder's script is it with its helpers and its arguments.
//
//go:embed inputs.js
var inputsSrc string

// recorder is one attempt's input recorder: the names of its isolated world and binding and
// the nonce its reports carry, each chosen anew for every attempt so that neither the page nor
// an agent can know them, and the DevTools sessions it listens on, one per page.
type recorder struct {
	world, binding, nonce string
	script                string
	q                     *inputQueue

	mu       sync.Mutex
	sessions map[playwright.Page]playwright.CDPSession
	tabs     int // pages watched so far: each input says which one, in this order
}

// secretName is a fresh random name with prefix.
func secretName(prefix string) string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// inputNavigationGap is how soon after an input a navigation counts as that input's doing
// (a link clicked, a form submitted) rather than one the agent started itself.
const inputNavigationGap = 1500 * time.Millisecond

var _ agent.Handover = (*Page)(nil)

// DevToolsURL is the DevTools endpoint of the page's browser, empty when it offers none (see
// Options.DevTools and RemoteOptions.CDP).
func (p *Page) DevToolsURL() string { return p.b.devtools }

// WatchInputs records the trusted inputs made in every page of the page's context, as
// Playwright's codegen does (capture-phase listeners and a binding), and the main-frame
// navigations no input started. The listeners run in an isolated world of each document, with a
// binding only that world has (Runtime.addBinding with executionContextName): a page's script
// or an agent's evaluation in the page can neither call the recorder, nor replace, delete or
// silence it, and a report without the recorder's nonce is dropped. Each input carries the page as it was when it
// happened, read there before its default action, and the browser's time of it. It reads
// only: the page's viewport, emulation and timing stay as they are.
func (p *Page) WatchInputs(ctx context.Context) (<-chan agent.Input, error) {
	rec := &recorder{world: secretName("observatory_"), binding: secretName("o"), nonce: secretName(""),
		q: &inputQueue{wake: make(chan struct{}, 1)}, sessions: map[playwright.Page]playwright.CDPSession{}}
	args, _ := json.Marshal([]any{rec.binding, rec.nonce, p.probes()})
	rec.script = "(" + pageScript(inputsSrc) + ")(" + string(args) + ", " + observeJS + ");"
	if err := rec.attach(ctx, p, p.page); err != nil {
		return nil, p.fail("watch the page's inputs", err)
	}
	watchNavigations(p.page, rec.q)
	p.bc.OnPage(func(pg playwright.Page) {
		watchNavigations(pg, rec.q)
		go func() { _ = rec.attach(ctx, p, pg) }() // off Playwright's dispatch goroutine
	})
	for _, pg := range p.bc.Pages() { // tabs opened before the watch began
		if pg != p.page {
			watchNavigations(pg, rec.q)
			if err := rec.attach(ctx, p, pg); err != nil && !pg.IsClosed() {
				return nil, p.fail("watch the inputs of a tab", err)
			}
		}
	}
	go func() {
		<-ctx.Done()
		rec.detach()
	}()
	p.mu.Lock()
	p.inputs = rec
	p.mu.Unlock()
	out := make(chan agent.Input)
	go rec.q.feed(ctx, out)
	return out, nil
}

// attach opens a DevTools session on pg, once, and runs the recorder in an isolated world of
// its every document: the one it shows now and each it loads after.
func (rec *recorder) attach(ctx context.Context, p *Page, pg playwright.Page) error {
	rec.mu.Lock()
	if _, ok := rec.sessions[pg]; ok || ctx.Err() != nil {
		rec.mu.Unlock()
		return nil
	}
	rec.sessions[pg] = nil // being attached
	tab := rec.tabs
	rec.tabs++
	rec.mu.Unlock()
	session, err := callOwned(ctx, p.limits(), func() (playwright.CDPSession, error) { return p.bc.NewCDPSession(pg) },
		func(s playwright.CDPSession) { _ = s.Detach() })
	if err != nil {
		return fmt.Errorf("open a DevTools session: %w", err)
	}
	rec.mu.Lock()
	rec.sessions[pg] = session
	rec.mu.Unlock()
	session.On("Runtime.bindingCalled", func(ev map[string]any) {
		if ev["name"] != rec.binding {
			return
		}
		payload, _ := ev["payload"].(string)
		body, ok := strings.CutPrefix(payload, rec.nonce)
		if !ok {
			return // not the recorder's: it alone knows the nonce
		}
		if in, ok := begun(body); ok {
			in.Tab = tab
			rec.q.begin(in)
			return
		}
		if in, at, ok := inputOf(body); ok {
			in.Tab = tab
			if in.Before != nil && pg == p.page {
				p.frameFor(in.Before)
			}
			rec.q.add(in, at, false)
		}
	})
	// A document that began loading while the script was being registered may miss it (a
	// page an agent opens and at once sends elsewhere, a reload right after connecting): each
	// document's main world, once created, gets the recorder's world too, the same world by
	// its name, where the recorder starts once per document.
	session.On("Runtime.executionContextCreated", func(ev map[string]any) {
		c, _ := ev["context"].(map[string]any)
		aux, _ := c["auxData"].(map[string]any)
		if frame, _ := aux["frameId"].(string); frame != "" && aux["isDefault"] == true {
			go rec.ensureWorld(ctx, p.limits(), session, frame) // off Playwright's dispatch goroutine
		}
	})
	return do(ctx, p.limits(), func() error {
		for _, c := range []struct {
			method string
			params map[string]any
		}{
			{"Runtime.enable", nil},
			{"Runtime.addBinding", map[string]any{"name": rec.binding, "executionContextName": rec.world}},
			{"Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": rec.script, "worldName": rec.world, "runImmediately": true}},
		} {
			if _, err := session.Send(c.method, c.params); err != nil {
				return fmt.Errorf("%s: %w", c.method, err)
			}
		}
		return nil
	})
}

// ensureWorld runs the recorder in frame's document, in its isolated world (created if the
// document has none yet), unless it already runs there; errors are a frame gone meanwhile.
func (rec *recorder) ensureWorld(ctx context.Context, lim limits, session playwright.CDPSession, frame string) {
	_ = do(ctx, lim, func() error {
		r, err := session.Send("Page.createIsolatedWorld", map[string]any{"frameId": frame, "worldName": rec.world})
		if err != nil {
			return err
		}
		m, _ := r.(map[string]any)
		id := m["executionContextId"]
		if id == nil {
			return nil
		}
		_, err = session.Send("Runtime.evaluate", map[string]any{"expression": rec.script, "contextId": id})
		return err
	})
}

// frameFor gives s, the page as the recorder read it at an input, the latest stored frame
// when that frame shows the same page (its sample reads the same): evidence keyed on time
// keeps a picture only where the picture is true.
func (p *Page) frameFor(s *agent.Sample) {
	p.mu.Lock()
	raw, shot := p.lastRaw, p.lastShot
	p.mu.Unlock()
	if shot == (storedShot{}) {
		return
	}
	if last, err := decodeSample(raw, nil); err == nil && sameView(last, *s) {
		shot.fill(s)
	}
}

// sameView says whether two samples read the same page: its address, what it shows and holds.
func sameView(a, b agent.Sample) bool {
	return a.URL == b.URL && a.Title == b.Title && a.DialogOpen == b.DialogOpen && a.Text == b.Text &&
		a.Notice == b.Notice && reflect.DeepEqual(a.Fields, b.Fields) && reflect.DeepEqual(a.Pairs, b.Pairs) &&
		reflect.DeepEqual(a.Rows, b.Rows)
}

// detach closes the recorder's sessions.
func (rec *recorder) detach() {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for pg, s := range rec.sessions {
		if s != nil {
			go func() { _ = s.Detach() }()
		}
		delete(rec.sessions, pg)
	}
}

// sync returns once every input made in the watched pages before it was called has been
// queued: a round trip through each page's session, whose events come in order.
func (rec *recorder) sync(ctx context.Context, lim limits) {
	rec.mu.Lock()
	sessions := make([]playwright.CDPSession, 0, len(rec.sessions))
	for _, s := range rec.sessions {
		if s != nil {
			sessions = append(sessions, s)
		}
	}
	rec.mu.Unlock()
	for _, s := range sessions {
		_ = do(ctx, lim, func() error {
			_, err := s.Send("Runtime.evaluate", map[string]any{"expression": "0"})
			return err
		})
	}
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

// inputOf reads what inputs.js reported (JSON), when the browser says it happened, and the
// page as it was then; false for anything else.
func inputOf(body string) (agent.Input, time.Time, bool) {
	var r struct {
		Kind      string    `json:"kind"`
		Role      string    `json:"role"`
		Name      string    `json:"name"`
		Value     string    `json:"value"`
		URL       string    `json:"url"`
		Box       agent.Box `json:"box"`
		At        float64   `json:"at"` // ms since the epoch
		Before    string    `json:"before"`
		Untrusted bool      `json:"untrusted"`
	}
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		return agent.Input{}, time.Time{}, false
	}
	kind := agent.ActionKind(r.Kind)
	switch kind {
	case agent.ActClick, agent.ActFill, agent.ActSelect, agent.ActPress:
	default:
		return agent.Input{}, time.Time{}, false
	}
	at := time.UnixMicro(int64(r.At * 1000))
	in := agent.Input{Kind: kind, Target: agent.Target{Role: r.Role, Name: r.Name}, Value: r.Value, URL: r.URL, At: at,
		ByScript: r.Untrusted}
	if r.Box != (agent.Box{}) {
		in.Box = &r.Box
	}
	if s, err := decodeSample(r.Before, nil); err == nil && r.Before != "" {
		in.Before = &s
	}
	return in, at, true
}

// begun reads what inputs.js reports when typing into a field begins: when, and the page then.
func begun(body string) (agent.Input, bool) {
	var r struct {
		Kind   string  `json:"kind"`
		At     float64 `json:"at"`
		Before string  `json:"before"`
	}
	if json.Unmarshal([]byte(body), &r) != nil || r.Kind != "began" {
		return agent.Input{}, false
	}
	in := agent.Input{Kind: agent.ActFill, At: time.UnixMicro(int64(r.At * 1000))}
	if s, err := decodeSample(r.Before, nil); err == nil && r.Before != "" {
		in.Before = &s
	}
	return in, true
}

// inputQueue holds the inputs reported and not yet taken, in the order they arrived (a
// page's inputs arrive in the order they happened), however many arrive while the executor
// records a step: none is dropped and no page waits.
type inputQueue struct {
	mu    sync.Mutex
	items []agent.Input
	made  int // inputs queued so far
	// typing are the fills begun and not reported yet, each with the page when it began.
	typing    []agent.Input
	lastInput time.Time
	wake      chan struct{}
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
	if i := slices.IndexFunc(q.typing, func(b agent.Input) bool { return b.At.Equal(in.At) && b.Tab == in.Tab }); i >= 0 {
		in.Before = q.typing[i].Before // the same look, maybe already recorded as an after
		q.typing = slices.Delete(q.typing, i, i+1)
	}
	// A fill is reported before any later input of its page: typing begun earlier and not
	// reported by now changed nothing (or its page is gone).
	q.typing = slices.DeleteFunc(q.typing, func(b agent.Input) bool { return b.Tab == in.Tab && b.At.Before(in.At) && in.Kind != agent.ActFill })
	q.items = append(q.items, in)
	q.made++
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// begin notes that typing began (see inputs.js).
func (q *inputQueue) begin(in agent.Input) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.typing = append(q.typing, in)
}

// take takes the first input, if any.
func (q *inputQueue) take() (agent.Input, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return agent.Input{}, false
	}
	in := q.items[0]
	q.items = q.items[1:]
	return in, true
}

// feed sends the queued inputs to out in order until ctx ends, then closes out.
func (q *inputQueue) feed(ctx context.Context, out chan<- agent.Input) {
	defer close(out)
	for {
		in, ok := q.take()
		if !ok {
			select {
			case <-q.wake:
			case <-ctx.Done():
				return
			}
			continue
		}
		select {
		case out <- in:
		case <-ctx.Done():
			return
		}
	}
}

// InputsMade says how many inputs were made in the watched pages before the call, all of
// them sent on WatchInputs's channel, and the earliest fill begun and not reported yet (nil
// for none): each page is asked in a round trip first, so an input still on its way from a
// page is counted.
func (p *Page) InputsMade(ctx context.Context) (int, *agent.Input) {
	p.mu.Lock()
	rec := p.inputs
	p.mu.Unlock()
	if rec == nil {
		return 0, nil
	}
	rec.sync(ctx, p.limits())
	rec.q.mu.Lock()
	defer rec.q.mu.Unlock()
	if len(rec.q.typing) == 0 {
		return rec.q.made, nil
	}
	first := slices.MinFunc(rec.q.typing, func(a, b agent.Input) int { return a.At.Compare(b.At) })
	return rec.q.made, &first
}
