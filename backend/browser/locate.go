package browser

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// ariaJS declares the helpers the page scripts share: visibility, text, role and name.
//
//go:embed aria.js
var ariaJS string

// elementsSrc lists the page's named elements with their boxes, as agent.Candidate JSON;
// elementsJS is it with the helpers.
//
//go:embed elements.js
var elementsSrc string

var elementsJS = pageScript(elementsSrc)

// maxElements bounds the elements a near-miss search compares with its target.
const maxElements = 2000

// measureTimeoutMS bounds how long Measure waits for its element: half an action's wait, so
// that an element that went away after Resolve (the action then waits for it in full) costs
// little more, while a busy browser still has time to answer.
const measureTimeoutMS = actionTimeoutMS / 2

// boxJS measures one element: its bounding client rectangle and its window's viewport.
const boxJS = `(el) => {
  const r = el.getBoundingClientRect();
  const w = el.ownerDocument.defaultView;
  return { x: r.x, y: r.y, width: r.width, height: r.height, viewport_width: w.innerWidth, viewport_height: w.innerHeight };
}`

// pageScript is a page script with aria.js's helpers declared at the top of its function.
func pageScript(src string) string {
	head, body, ok := strings.Cut(src, "{\n")
	if !ok {
		panic("browser: a page script must be a function whose body starts on a new line")
	}
	return head + "{\n" + ariaJS + body
}

// Measure returns where the one element t matches is now: its bounding box in CSS pixels of
// the page's viewport, with the viewport's size; a fresh look at t (see look) says so without
// a round trip. Its errors are returned, never logged.
func (p *Page) Measure(ctx context.Context, t agent.Target) (agent.Box, error) {
	if seen, fresh := p.recentLook(t); fresh {
		return seen.box, nil
	}
	loc, err := p.locate(t)
	if err != nil {
		return agent.Box{}, err
	}
	raw, err := p.evaluateOne(ctx, loc, lookJS, measureTimeoutMS)
	if err != nil { // evidence for the record, not the action: the caller decides what it costs
		return agent.Box{}, fmt.Errorf("measure %s: %w", t, err)
	}
	var got lookAnswer
	if err := remarshal(raw, &got); err != nil {
		return agent.Box{}, fmt.Errorf("measure %s: %w", t, err)
	}
	p.keepLook(t, got)
	return got.Box, nil
}

// evaluateOne calls fn, a script function of one element, on the one element loc matches and
// returns its result. When exactly one matches already, that is one round trip to the
// browser (Locator.EvaluateAll) instead of the three of Locator.Evaluate (find the element,
// call fn on it, let it go); otherwise (none yet, several, or that call failed) it is
// Locator.Evaluate, which waits up to timeoutMS for the element and refuses several. fn
// reads the page and changes nothing, so running it twice is harmless.
func (p *Page) evaluateOne(ctx context.Context, loc playwright.Locator, fn string, timeoutMS float64) (any, error) {
	one, err := call(ctx, p.limits(), func() (any, error) {
		return loc.EvaluateAll("(els) => els.length === 1 ? { value: (" + fn + ")(els[0]) } : null")
	})
	if got, ok := one.(map[string]any); err == nil && ok {
		return got["value"], nil
	}
	return call(ctx, p.limits(), func() (any, error) {
		return loc.Evaluate(fn, nil, playwright.LocatorEvaluateOptions{Timeout: playwright.Float(timeoutMS)})
	})
}

// miss is the error for a target that matched nothing: agent.ErrNoTarget with the page's
// elements nearest it. When the page cannot be listed, it is ErrNoTarget alone: the miss is
// the finding, the candidates only help to read it.
func (p *Page) miss(ctx context.Context, t agent.Target) error {
	raw, err := call(ctx, p.limits(), func() (any, error) { return p.driven().Evaluate(elementsJS, maxElements) })
	encoded, ok := raw.(string)
	if err != nil || !ok {
		return agent.ErrNoTarget
	}
	var elements []agent.Candidate
	if json.Unmarshal([]byte(encoded), &elements) != nil {
		return agent.ErrNoTarget
	}
	return &agent.MissError{Candidates: agent.Nearest(t, elements)}
}

// remarshal decodes a value Playwright returned (maps of float64) into out, through JSON.
func remarshal(v any, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}
