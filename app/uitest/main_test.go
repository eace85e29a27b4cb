package uitest

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/app"
	"observatory/app/httpapi"
	"observatory/backend/browser/browsertest"
	"observatory/backend/browser/browsertest/policy"
	"observatory/backend/store"
)

// dist is the built frontend, relative to this package.
const dist = "../../frontend/dist"

// Timeouts, in ms, for Playwright's auto-waiting: a page reaction, and a whole run.
const (
	uiTimeout  = 15_000
	runTimeout = 120_000
)

// shared is the one browser every test opens its pages in; launchErr says why there is none.
var (
	shared    playwright.Browser
	launchErr error
)

// expect waits for page state with a page reaction's timeout.
var expect = playwright.NewPlaywrightAssertions(uiTimeout)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

// run launches the browser once, the way the product does, and closes it after the tests.
func run(m *testing.M) int {
	if _, err := os.Stat(filepath.Join(dist, "index.html")); err != nil {
		// t.Fatal needs a test: every test checks again through newServer and fails there.
		return m.Run()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	b, err := browsertest.Start(ctx)
	if err != nil {
		// Policy needs a test: every test reports launchErr through openPage.
		launchErr = err
		return m.Run()
	}
	defer b.Close()
	shared = b.Playwright()
	return m.Run()
}

// testToken is the access token the test server requires, as `serve` prints it in its address.
var testToken = httpapi.NewToken()

// newServer serves a fresh data folder's services and the built frontend, as `serve` does.
func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv, _, _ := newServerWithStore(t)
	return srv
}

// newServerWithStore is newServer that also hands out its store and data folder, to write
// runs and media the way another process sharing the folder would.
func newServerWithStore(t *testing.T) (*httptest.Server, *store.Store, string) {
	t.Helper()
	return newServerWithOptions(t, app.Options{})
}

// newServerWithOptions is newServerWithStore with the services built from o, whose store,
// data folder and transport it fills in; like serve, it follows the runs of other processes.
func newServerWithOptions(t *testing.T, o app.Options) (*httptest.Server, *store.Store, string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dist, "index.html")); err != nil {
		t.Fatal("the frontend is not built: run `npm run build` in frontend/ (scripts/test.sh does)")
	}
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatalf("opening the store in %s: %v", dir, err)
	}
	t.Cleanup(func() { st.Close() })
	o.Store, o.DataDir, o.Transport, o.FollowOthers = st, dir, "http", true
	services := app.New(o)
	srv := httptest.NewServer(httpapi.New(services, os.DirFS(dist), dir, testToken))
	t.Cleanup(func() {
		services.Shutdown()
		srv.Close()
	})
	return srv, st, dir
}

// openPage opens the window served by srv in a new browser context that accepts downloads.
func openPage(t *testing.T, srv *httptest.Server) playwright.Page {
	t.Helper()
	if shared == nil {
		policy.Unavailable(t, launchErr)
	}
	bctx, err := shared.NewContext(playwright.BrowserNewContextOptions{
		AcceptDownloads: playwright.Bool(true),
		Viewport:        &playwright.Size{Width: 1400, Height: 1000},
	})
	if err != nil {
		t.Fatalf("opening a browser context: %v", err)
	}
	t.Cleanup(func() { bctx.Close() })
	bctx.SetDefaultTimeout(uiTimeout)
	page, err := bctx.NewPage()
	if err != nil {
		t.Fatalf("opening a page: %v", err)
	}
	// The printed address carries the token; opening it sets the session cookie.
	if _, err := page.Goto(srv.URL + "/?token=" + testToken); err != nil {
		t.Fatalf("loading %s: %v", srv.URL, err)
	}
	return page
}
