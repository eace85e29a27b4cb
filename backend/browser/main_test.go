package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest/policy"
)

// installErr is why the Playwright driver could not be installed, if it could not.
var installErr error

// shared is the Chromium the tests share, started on first use.
var shared struct {
	once    sync.Once
	browser *Browser
	err     error
}

func TestMain(m *testing.M) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	installErr = Install(ctx)
	cancel()
	code := m.Run()
	if shared.browser != nil {
		if err := shared.browser.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "close the shared browser:", err)
		}
	}
	os.Exit(code)
}

// needDriver stops tests that need the Playwright driver when it could not be installed:
// they fail where a browser is required and skip elsewhere (see policy.Unavailable).
func needDriver(tb testing.TB) {
	tb.Helper()
	if installErr != nil {
		policy.Unavailable(tb, fmt.Errorf("install the Playwright driver: %w", installErr))
	}
}

// testBrowser returns the shared headless Chromium.
func testBrowser(tb testing.TB) *Browser {
	tb.Helper()
	needDriver(tb)
	shared.once.Do(func() {
		shared.browser, shared.err = Launch(context.Background(), Options{Headless: true})
	})
	if shared.err != nil {
		policy.Unavailable(tb, fmt.Errorf("launch headless Chromium: %w", shared.err))
	}
	return shared.browser
}

// labServer serves testdata/lab.html.
func labServer(tb testing.TB) string {
	tb.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, "testdata/lab.html")
	}))
	tb.Cleanup(srv.Close)
	return srv.URL
}

// openLab opens the test lab in a new page with the given recording options; the page is
// closed at the end of the test.
func openLab(tb testing.TB, opts agent.PageOptions) agent.Page {
	tb.Helper()
	ctx := context.Background()
	page, err := testBrowser(tb).NewPage(ctx, opts)
	if err != nil {
		tb.Fatalf("new page: %v", err)
	}
	tb.Cleanup(func() { _, _ = page.Close() })
	if err := page.Goto(ctx, labServer(tb)); err != nil {
		tb.Fatalf("goto: %v", err)
	}
	return page
}

// mustAct runs an action the test expects to succeed.
func mustAct(tb testing.TB, page agent.Page, kind agent.ActionKind, role, name, value string) {
	tb.Helper()
	if err := page.Act(context.Background(), agent.Action{Kind: kind, Target: agent.Target{Role: role, Name: name}, Value: value}); err != nil {
		tb.Fatalf("%s %s %q: %v", kind, role, name, err)
	}
}

// mustObserve samples the page, failing the test on error.
func mustObserve(tb testing.TB, page agent.Page) agent.Sample {
	tb.Helper()
	s, err := page.Observe(context.Background())
	if err != nil {
		tb.Fatalf("observe: %v", err)
	}
	return s
}
