package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
	"observatory/backend/confine"
)

var _ agent.Preflighter = (*Page)(nil)

// Preflight refuses an upload of a file that is not inside the page's uploads folder, so
// that nobody is asked to approve an upload that could never run.
func (p *Page) Preflight(a agent.Action) error {
	if a.Kind != agent.ActUpload {
		return nil
	}
	if _, err := confine.Resolve(p.opts.Uploads, a.Value); err != nil {
		return fmt.Errorf("%w: %w", agent.ErrRefused, err)
	}
	return nil
}

// upload gives the file input loc names the file a.Value names inside the page's uploads
// folder; a path that leaves the folder is refused before the browser sees it.
func (p *Page) upload(ctx context.Context, loc playwright.Locator, a agent.Action, timeout *float64) error {
	path, err := confine.Resolve(p.opts.Uploads, a.Value)
	if err != nil {
		return fmt.Errorf("%w: %w", agent.ErrRefused, err)
	}
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("upload %q: %w", a.Value, err)
	}
	err = do(ctx, p.actLimits(int(*timeout)), func() error {
		return loc.SetInputFiles(path, playwright.LocatorSetInputFilesOptions{Timeout: timeout})
	})
	if err != nil {
		return p.fail(fmt.Sprintf("upload %q into %s", a.Value, a.Target), err)
	}
	rel := filepath.Base(path)
	if root, err := filepath.EvalSymlinks(p.opts.Uploads); err == nil {
		if r, err := filepath.Rel(root, path); err == nil {
			rel = filepath.ToSlash(r)
		}
	}
	p.transferred(agent.Transfer{Kind: agent.ActUpload, Offered: a.Value, Saved: rel, Bytes: info.Size()})
	return nil
}

// download clicks the control loc names and saves the file it starts into the page's
// downloads folder, under a safe name that never overwrites a file there.
func (p *Page) download(ctx context.Context, loc playwright.Locator, a agent.Action, timeout *float64) error {
	if p.opts.Downloads == "" {
		return fmt.Errorf("download from %s: the task names no downloads folder; set `downloads:` in the task file", a.Target)
	}
	what := fmt.Sprintf("download from %s", a.Target)
	d, err := p.expectDownload(ctx, func() error { return p.click(ctx, loc, timeout, nil) }, timeout)
	if f, ok := errors.AsType[navigationError](err); ok {
		return fmt.Errorf("%s: nothing was downloaded: %s", what, f.explain(p.opts.Origins))
	}
	if err != nil {
		return p.fail(what, err)
	}
	offered := d.SuggestedFilename()
	f, name, err := confine.Create(p.opts.Downloads, offered)
	if err != nil {
		_ = d.Cancel()
		return err
	}
	path := f.Name()
	f.Close()
	if err := do(ctx, p.limits(), func() error { return d.SaveAs(path) }); err != nil {
		_ = os.Remove(path)
		return p.fail(fmt.Sprintf("%s: save %q as %s", what, offered, name), err)
	}
	var size int64
	if info, err := os.Stat(path); err == nil {
		size = info.Size()
	}
	p.transferred(agent.Transfer{Kind: agent.ActDownload, Offered: offered, Saved: name, Bytes: size})
	return nil
}

// navigationError ends the wait for a download when the navigation that should have
// started it failed instead: blocked by the origins guard, say, at a redirect's second hop.
type navigationError struct{ navigationFailure }

func (e navigationError) Error() string { return "the navigation failed: " + e.URL + ": " + e.Failure }

// expectDownload runs act and waits for the download it starts, within timeout; a failed
// navigation of the main frame while it waits ends the wait at once with a navigationError.
func (p *Page) expectDownload(ctx context.Context, act func() error, timeout *float64) (playwright.Download, error) {
	for drained := false; !drained; { // a failure from before the action is not this one's
		select {
		case <-p.navFailed:
		default:
			drained = true
		}
	}
	wait, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		select {
		case f := <-p.navFailed:
			cancel(navigationError{f})
		case <-wait.Done():
		}
	}()
	d, err := call(wait, p.actLimits(int(*timeout)), func() (playwright.Download, error) {
		return p.driven().ExpectDownload(act, playwright.PageExpectDownloadOptions{Timeout: timeout})
	})
	if err != nil && ctx.Err() == nil {
		if cause, ok := errors.AsType[navigationError](context.Cause(wait)); ok {
			return nil, cause
		}
	}
	return d, err
}

// transferred remembers a file moved, for Transfers.
func (p *Page) transferred(t agent.Transfer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.transfers = append(p.transfers, t)
}

// Transfers returns the files uploaded or saved since the last call.
func (p *Page) Transfers() []agent.Transfer {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.transfers
	p.transfers = nil
	return out
}
