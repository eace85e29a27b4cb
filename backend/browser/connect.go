package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mxschmitt/playwright-go"
)

// Connect attaches to a browser that runs elsewhere: a Playwright browser server
// (`playwright run-server`, what the official Playwright container runs) at a ws:// or
// wss:// address, or, with cdp set, any Chromium that speaks the DevTools protocol (Chrome
// started with --remote-debugging-port, Browserless, Selenium Grid's CDP endpoint) at an
// http:// or ws:// address. Pages opened on it work as local ones do; a remote server's
// videos are fetched with SaveAs, since their files lie on its machine. Close leaves the
// remote browser running.
func Connect(ctx context.Context, endpoint string, opts RemoteOptions) (*Browser, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := UseSystemNode(); err != nil {
		return nil, err
	}
	if err := CheckDriver(); err != nil {
		return nil, err
	}
	pw, err := playwright.Run(&playwright.RunOptions{Verbose: false})
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrNoDriver, err)
	}
	b := newBrowser(pw, opts.Log)
	b.remote, b.endpoint = !opts.CDP, endpoint
	if opts.CDP { // the endpoint an outside agent drives the browser through, as we do
		b.devtools = endpoint
	}
	if opts.GuardHost != "" {
		b.guardHost = opts.GuardHost
	}
	br, err := call(ctx, b.limits(), func() (playwright.Browser, error) {
		if opts.CDP {
			return pw.Chromium.ConnectOverCDP(endpoint, playwright.BrowserTypeConnectOverCDPOptions{Timeout: playwright.Float(connectTimeoutMS)})
		}
		return pw.Chromium.Connect(endpoint, playwright.BrowserTypeConnectOptions{Timeout: playwright.Float(connectTimeoutMS),
			Headers: map[string]string{"x-playwright-launch-options": opts.launchHeader()}})
	})
	if err != nil {
		_ = stopDriver(pw)
		if ctx.Err() != nil {
			return nil, err
		}
		if mismatch := versionMismatch(endpoint, err); mismatch != nil {
			return nil, mismatch
		}
		return nil, shorten(b.log, "connect to the browser at "+endpoint, err)
	}
	b.attach(br, "the browser at "+endpoint+" disconnected")
	return b, nil
}

// RemoteOptions choose how to reach a remote browser.
type RemoteOptions struct {
	// CDP connects over the DevTools protocol instead of to a Playwright browser server.
	CDP bool
	// Executable is the Chromium a browser server should launch, a path on its machine; the
	// server honours it only when started with --unsafe. Empty leaves the choice to it.
	Executable string
	// Log receives what Playwright appends to its errors; nil writes it to standard error.
	Log io.Writer
	// GuardHost is an address of this machine the remote browser can reach, where each
	// page's origins guard listens (a page with origins sends every request through it);
	// empty is 127.0.0.1, which only a browser on this machine reaches.
	GuardHost string
}

// launchHeader is how a browser server is asked to launch: headless, quiet, and with the
// executable and flags given (which a server ignores unless started with --unsafe).
func (o RemoteOptions) launchHeader() string {
	h := map[string]any{"headless": true}
	if o.Executable != "" {
		h["executablePath"] = o.Executable
		h["args"] = launchArgs()
	}
	b, _ := json.Marshal(h)
	return string(b)
}

// connectTimeoutMS bounds connecting to a remote browser.
const connectTimeoutMS = 15000

// Version is the connected browser's version; empty for one that launches a browser per page
// (see ownBrowser), which has none running until a page opens.
func (b *Browser) Version() string {
	if b.browser == nil {
		return ""
	}
	return b.browser.Version()
}

// Streams reports whether the browser's pages can be streamed live (see Page.Stream): only
// Chromium offers the DevTools sessions the screencast needs (a browser that launches one per
// page launches Chromium).
func (b *Browser) Streams() bool {
	return b.browser == nil || b.browser.BrowserType().Name() == "chromium"
}
