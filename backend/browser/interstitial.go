package browser

import (
	"context"
	"errors"
	"strings"

	"github.com/mxschmitt/playwright-go"
)

// blankWaitMS is how long an observation waits for a page that went from a web page to
// about:blank to go on somewhere.
const blankWaitMS = 3000

// blankPasses bounds how often one observation follows a page through about:blank.
const blankPasses = 2

// sampleJSON observes the page as sampleLoaded does, and never takes an about:blank
// interstitial for the page: a page observed at a web address that is now blank (a sign-in
// or a payment passing through an empty page, a document replaced before its successor
// loads) is on its way somewhere, so the observation waits up to blankWaitMS for where it
// goes and observes that. A page that stays blank is what there is: it is observed so, and
// the next observations do not wait again until the page is at a web address once more.
func (p *Page) sampleJSON(ctx context.Context) (string, error) {
	for pass := 1; ; pass++ {
		raw, err := p.sampleLoaded(ctx)
		if err != nil {
			return raw, err
		}
		here := p.driven().URL()
		p.mu.Lock()
		passing := here == "about:blank" && p.onWeb
		p.onWeb = strings.HasPrefix(here, "http:") || strings.HasPrefix(here, "https:")
		p.mu.Unlock()
		if !passing || pass == blankPasses {
			return raw, nil
		}
		err = do(ctx, p.limits(), func() error {
			return p.driven().WaitForURL(func(u string) bool { return u != "about:blank" },
				playwright.PageWaitForURLOptions{Timeout: playwright.Float(blankWaitMS), WaitUntil: playwright.WaitUntilStateCommit})
		})
		switch {
		case errors.Is(err, playwright.ErrTimeout):
			return raw, nil // it stays blank: that is the page now
		case err != nil:
			return "", p.fail("wait for the page after about:blank", err)
		}
	}
}
