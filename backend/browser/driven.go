package browser

import (
	"context"
	"fmt"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// maxViewportSide bounds a resized viewport's side, in CSS pixels.
const maxViewportSide = 10000

// actDriven carries out the actions only an agent's driver proposes (see agent.ActDrag and
// the kinds after it): a drag from the target onto a.To, a resize of the viewport, and the
// tab actions (see actTab). It
// reports false for any other kind, which Act carries out itself.
func (p *Page) actDriven(ctx context.Context, a agent.Action, timeout *float64) (bool, error) {
	if tab, err := p.actTab(ctx, a); tab {
		return true, err
	}
	switch a.Kind {
	case agent.ActDrag:
		from, err := p.locate(a.Target)
		if err != nil {
			return true, err
		}
		if a.To == nil {
			return true, fmt.Errorf("%w: a drag names where it drops its target", agent.ErrRefused)
		}
		to, err := p.locate(*a.To)
		if err != nil {
			return true, err
		}
		return true, do(ctx, p.actLimits(int(*timeout)), func() error {
			return from.DragTo(to, playwright.LocatorDragToOptions{Timeout: timeout})
		})
	case agent.ActResize:
		var w, h int
		if _, err := fmt.Sscanf(a.Value, "%dx%d", &w, &h); err != nil || w < 1 || h < 1 || w > maxViewportSide || h > maxViewportSide {
			return true, fmt.Errorf("%w: the size %q is not <width>x<height>, each 1 to %d CSS pixels", agent.ErrRefused, a.Value, maxViewportSide)
		}
		return true, do(ctx, p.limits(), func() error { return p.driven().SetViewportSize(w, h) })
	}
	return false, nil
}
