package browser

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// An agent's driver turns between the tabs of the attempt's browser context, as Playwright
// MCP's browser_tabs and browser_close do: the driven tab is where actions and observations
// go, each sample says which it was read from (agent.Sample.Tab), and closing the driven tab
// turns to another first, so the attempt lives on. Every tab's traffic is recorded and
// guarded as the page's own (see followTab). The live view and the video follow the driven
// tab (see Page.following).

// driven is the tab actions and observations go to.
func (p *Page) driven() playwright.Page {
	tab, _ := p.following()
	return tab
}

// drives reports whether pg is the driven tab.
func (p *Page) drives(pg playwright.Page) bool { return pg == p.driven() }

// following is the driven tab and a channel closed once another tab is driven, for the live
// view and the video to follow it.
func (p *Page) following() (playwright.Page, <-chan struct{}) {
	p.tabMu.Lock()
	defer p.tabMu.Unlock()
	if p.turned == nil {
		p.turned = make(chan struct{})
	}
	if p.tab != nil {
		return p.tab, p.turned
	}
	return p.page, p.turned
}

// turnTo makes pg the driven tab; an observation after it waits for no navigation of the
// tab left.
func (p *Page) turnTo(pg playwright.Page) {
	p.tabMu.Lock()
	p.tab = pg
	if p.turned != nil {
		close(p.turned)
		p.turned = nil
	}
	p.tabMu.Unlock()
	p.nav.settle()
	p.mu.Lock()
	p.quiet, p.latest = quietSample{}, "" // the last sample is another tab's
	p.mu.Unlock()
}

// tabIndex is the driven tab's index among the context's open tabs; 0 when it is not listed.
func (p *Page) tabIndex() int {
	return max(slices.Index(p.bc.Pages(), p.driven()), 0)
}

// actTab carries out a tab action or a close (agent.ActTabNew and the kinds after it); false
// for any other kind.
func (p *Page) actTab(ctx context.Context, a agent.Action) (bool, error) {
	switch a.Kind {
	case agent.ActTabNew:
		if _, err := p.openTab(ctx); err != nil || a.Value == "" {
			return true, err
		}
		return true, p.Goto(ctx, a.Value)
	case agent.ActTabSelect:
		pg, err := p.tabAt(a.Value)
		if err == nil {
			p.turnTo(pg)
			err = do(ctx, p.limits(), func() error { return pg.BringToFront() })
		}
		return true, err
	case agent.ActTabClose:
		pg := p.driven()
		if a.Value != "" {
			var err error
			if pg, err = p.tabAt(a.Value); err != nil {
				return true, err
			}
		}
		return true, p.closeTabs(ctx, pg)
	case agent.ActClose:
		return true, p.closeTabs(ctx, p.bc.Pages()...)
	}
	return false, nil
}

// openTab opens a blank tab in the attempt's context and drives it.
func (p *Page) openTab(ctx context.Context) (playwright.Page, error) {
	pg, err := callOwned(ctx, p.limits(), p.bc.NewPage, func(pg playwright.Page) { _ = pg.Close() })
	if err != nil {
		return nil, err
	}
	p.turnTo(pg)
	return pg, nil
}

// tabAt is the open tab at index v.
func (p *Page) tabAt(v string) (playwright.Page, error) {
	pages := p.bc.Pages()
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 || i >= len(pages) {
		return nil, fmt.Errorf("%w: there is no tab %q: the attempt has %d open (0 to %d)", agent.ErrRefused, v, len(pages), len(pages)-1)
	}
	return pages[i], nil
}

// closeTabs closes tabs. When the driven tab is among them it first turns to the tab that
// takes its place (the next open one, else the one before), or to a fresh blank tab when none
// stays open, as Playwright MCP's next call opens one.
func (p *Page) closeTabs(ctx context.Context, tabs ...playwright.Page) error {
	if slices.Contains(tabs, p.driven()) {
		var next playwright.Page
		pages := p.bc.Pages()
		at := slices.Index(pages, p.driven())
		for _, i := range []int{at + 1, at - 1} {
			if i >= 0 && i < len(pages) && !slices.Contains(tabs, pages[i]) {
				next = pages[i]
				break
			}
		}
		if next == nil {
			if _, err := p.openTab(ctx); err != nil {
				return err
			}
		} else {
			p.turnTo(next)
		}
	}
	var errs []error
	for _, pg := range tabs {
		errs = append(errs, do(ctx, p.limits(), func() error { return pg.Close() }))
	}
	return errors.Join(errs...)
}
