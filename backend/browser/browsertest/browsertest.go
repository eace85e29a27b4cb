// Package browsertest starts the real headless Chromium for tests outside the browser
// package. Where it cannot be installed or started, tests fail or skip as policy decides.
package browsertest

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"observatory/backend/browser"
	"observatory/backend/browser/browsertest/policy"
)

// Start installs the Playwright driver (a no-op when it is there) and launches headless
// Chromium, for callers without a testing.TB such as TestMain.
func Start(ctx context.Context) (*browser.Browser, error) {
	if err := browser.Install(ctx); err != nil {
		return nil, fmt.Errorf("install the Playwright driver: %w", err)
	}
	b, err := browser.Launch(ctx, browser.Options{Headless: true})
	if err != nil {
		return nil, fmt.Errorf("launch headless Chromium: %w", err)
	}
	return b, nil
}

// Launch starts headless Chromium for tb and closes it when tb ends. When it cannot, tb fails
// or skips (see policy.Unavailable).
func Launch(tb testing.TB) *browser.Browser {
	tb.Helper()
	b, err := Start(context.Background())
	if err != nil {
		policy.Unavailable(tb, err)
	}
	tb.Cleanup(func() {
		if err := b.Close(); err != nil {
			tb.Errorf("close Chromium: %v", err)
		}
	})
	return b
}

// probe remembers, per test binary, whether Chromium could be started once.
var probe struct {
	once sync.Once
	err  error
}

// Ready checks that headless Chromium can be installed and started, for tests whose code
// under test launches its own; the check runs once per test binary. When it cannot, tb fails
// or skips (see policy.Unavailable).
func Ready(tb testing.TB) {
	tb.Helper()
	probe.once.Do(func() {
		b, err := Start(context.Background())
		if err == nil {
			err = b.Close()
		}
		probe.err = err
	})
	if probe.err != nil {
		policy.Unavailable(tb, probe.err)
	}
}
