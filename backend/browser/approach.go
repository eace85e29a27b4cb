package browser

import (
	"context"
	_ "embed"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// approachJS checks, in one call on the page, what Playwright's hover checks of a target and
// returns the point to move the pointer to, or null when it cannot vouch for one (see the
// script).
//
//go:embed approach.js
var approachJS string

// point is a place in the viewport, in CSS pixels.
type point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// hover moves the pointer onto the element loc names (t). Playwright's hover makes about eight
// calls to the page for it (find the element, mark it, wait for it to be visible and stable,
// scroll it into view, read its quads and the viewport, set up and stop a hit-target check,
// move); here one call makes the same checks and returns the point, and the pointer is moved
// there. When that call cannot vouch for a point (a check fails, or the target needs what
// only Playwright's does: scrolling, waiting, a child frame), Playwright's hover does it all
// as before, with its waits and its errors.
func (p *Page) hover(ctx context.Context, loc playwright.Locator, t agent.Target, timeout *float64) error {
	if t.Frames == (agent.FramePath{}) {
		if at, ok := p.approachPoint(ctx, loc); ok {
			return p.driven().Mouse().Move(at.X, at.Y)
		}
	}
	return loc.Hover(playwright.LocatorHoverOptions{Timeout: timeout})
}

// approachPoint runs approachJS on loc's matches and returns its point, false when it gave
// none or the call failed (the fallback then meets the failure in its own terms).
func (p *Page) approachPoint(ctx context.Context, loc playwright.Locator) (point, bool) {
	raw, err := call(ctx, p.limits(), func() (any, error) { return loc.EvaluateAll(approachJS) })
	if err != nil || raw == nil {
		return point{}, false
	}
	var at point
	if remarshal(raw, &at) != nil {
		return point{}, false
	}
	return at, true
}
