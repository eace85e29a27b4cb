package browser

import (
	"context"
	_ "embed"

	"github.com/mxschmitt/playwright-go"
)

// reachJS reports whether a pointer cannot reach an element: off the page, or clipped to a
// pixel or less.
//
//go:embed reach.js
var reachJS string

// unreachable reports whether the element loc names is one a pointer cannot reach, such as
// an accessibility toggle placed off-screen or clipped to one pixel. A mouse click there
// lands on empty space (or waits for an element that never gets in the way of nothing) and
// may report success; a keyboard user presses it instead.
func (p *Page) unreachable(ctx context.Context, loc playwright.Locator) (bool, error) {
	hidden, err := p.evaluateOne(ctx, loc, reachJS, actionTimeoutMS)
	if err != nil {
		return false, err
	}
	b, _ := hidden.(bool)
	return b, nil
}

// press presses the element loc names the way a keyboard user would: it moves the focus to
// it and presses Enter, which activates a button or link whatever its position on screen.
func press(loc playwright.Locator, timeout *float64) error {
	if err := loc.Focus(playwright.LocatorFocusOptions{Timeout: timeout}); err != nil {
		return err
	}
	return loc.Press("Enter", playwright.LocatorPressOptions{Timeout: timeout})
}
