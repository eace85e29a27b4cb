package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// actionTimeoutMS bounds each action, so a control that never becomes actionable cannot hang
// the executor.
const actionTimeoutMS = 5000

// Page is one tab in its own browser context. It implements agent.Page.
type Page struct {
	bc      playwright.BrowserContext
	page    playwright.Page
	opts    agent.PageOptions
	crashed atomic.Bool
}

var _ agent.Page = (*Page)(nil)

func newPage(bc playwright.BrowserContext, pg playwright.Page, opts agent.PageOptions) *Page {
	p := &Page{bc: bc, page: pg, opts: opts}
	pg.OnCrash(func(playwright.Page) { p.crashed.Store(true) })
	return p
}

// Goto loads url and waits for its load event.
func (p *Page) Goto(ctx context.Context, url string) error {
	err := do(ctx, func() error {
		_, err := p.page.Goto(url, playwright.PageGotoOptions{WaitUntil: playwright.WaitUntilStateLoad})
		return err
	})
	return p.fail("load "+url, err)
}

// locate is the exact role-and-name locator Resolve counts and Act uses; an empty name
// matches every element with the role.
func (p *Page) locate(role, name string) playwright.Locator {
	opts := playwright.PageGetByRoleOptions{}
	if name != "" {
		opts.Name = name
		opts.Exact = playwright.Bool(true)
	}
	return p.page.GetByRole(playwright.AriaRole(role), opts)
}

// Resolve counts the elements with exactly this role and accessible name.
func (p *Page) Resolve(ctx context.Context, role, name string) error {
	n, err := call(ctx, func() (int, error) { return p.locate(role, name).Count() })
	if err != nil {
		return p.fail(fmt.Sprintf("find %s %q", role, name), err)
	}
	switch {
	case n == 0:
		return agent.ErrNoTarget
	case n > 1:
		return fmt.Errorf("%w (%d of them)", agent.ErrAmbiguousTarget, n)
	}
	return nil
}

// Act clicks, fills, selects (by option value) or submits (by clicking) role[name].
func (p *Page) Act(ctx context.Context, kind agent.ActionKind, role, name, value string) error {
	timeout := playwright.Float(actionTimeoutMS)
	var run func(playwright.Locator) error
	switch kind {
	case agent.ActClick, agent.ActSubmit:
		run = func(loc playwright.Locator) error {
			return loc.Click(playwright.LocatorClickOptions{Timeout: timeout})
		}
	case agent.ActFill:
		run = func(loc playwright.Locator) error {
			return loc.Fill(value, playwright.LocatorFillOptions{Timeout: timeout})
		}
	case agent.ActSelect:
		run = func(loc playwright.Locator) error {
			_, err := loc.SelectOption(playwright.SelectOptionValues{Values: &[]string{value}},
				playwright.LocatorSelectOptionOptions{Timeout: timeout})
			return err
		}
	default:
		return fmt.Errorf("%q is not a page action: use click, fill, select or submit", kind)
	}
	err := do(ctx, func() error { return run(p.locate(role, name)) })
	return p.fail(fmt.Sprintf("%s %s %q", kind, role, name), err)
}

// Stop cuts the page off the network and then aborts its in-flight requests and loads, as
// the browser's Stop button does (window.stop()). Going offline first matters: work the
// page's scripts still have queued (a save waiting behind other requests) would otherwise
// leave after the stop. The page stays open and observable.
func (p *Page) Stop(ctx context.Context) error {
	err := do(ctx, func() error {
		if err := p.bc.SetOffline(true); err != nil {
			return err
		}
		_, err := p.page.Evaluate("() => window.stop()")
		return err
	})
	return p.fail("stop the page", err)
}

// Close finishes the trace, closes the page's context, which aborts its requests and
// finishes the video, and returns what was recorded, relative to MediaDir. The context is
// closed even when saving the trace fails, and both errors are reported.
func (p *Page) Close() (agent.Recording, error) {
	var rec agent.Recording
	if p.page.IsClosed() {
		return rec, nil
	}
	var traceErr error
	if recordsTrace(p.opts) {
		name := mediaName(p.opts, ".trace.zip")
		if traceErr = p.bc.Tracing().Stop(filepath.Join(p.opts.MediaDir, name)); traceErr == nil {
			rec.Trace = name
		} else {
			traceErr = fmt.Errorf("save the Playwright trace: %w", traceErr)
		}
	}
	video := p.page.Video()
	if err := p.bc.Close(); err != nil {
		return rec, errors.Join(traceErr, fmt.Errorf("close the page: %w", err))
	}
	if traceErr != nil {
		return rec, traceErr
	}
	if !recordsVideo(p.opts) {
		return rec, nil
	}
	recorded, err := video.Path()
	if err != nil {
		return rec, fmt.Errorf("find the recorded video: %w", err)
	}
	name := mediaName(p.opts, ".webm")
	if err := os.Rename(recorded, filepath.Join(p.opts.MediaDir, name)); err != nil {
		return rec, fmt.Errorf("name the recorded video: %w", err)
	}
	rec.Video = name
	return rec, nil
}

// fail names what failed and marks a closed or crashed page as agent.ErrBrowserGone. It
// passes nil and context errors through.
func (p *Page) fail(what string, err error) error {
	switch {
	case err == nil, errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case p.crashed.Load():
		return fmt.Errorf("%s: %w: the page crashed (%v)", what, agent.ErrBrowserGone, err)
	case p.page.IsClosed(), errors.Is(err, playwright.ErrTargetClosed):
		return fmt.Errorf("%s: %w: the page or browser was closed (%v)", what, agent.ErrBrowserGone, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// do is call for Playwright calls that return only an error.
func do(ctx context.Context, fn func() error) error {
	_, err := call(ctx, func() (struct{}, error) { return struct{}{}, fn() })
	return err
}
