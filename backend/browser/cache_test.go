package browser

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
)

// TestCachedResponsesHaveAnUnknownSize visits a page twice in one browser context: the second
// visit takes its cached script from the browser's memory cache, for which Chromium reports a
// negative body size. Every request's size is its bytes, or -1 for unknown.
func TestCachedResponsesHaveAnUnknownSize(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><title>Cached</title><script src="/app.js"></script><img src="/logo.svg"><p>Hello</p>`))
	})
	mux.HandleFunc("GET /app.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		_, _ = w.Write([]byte("window.app = '" + strings.Repeat("x", 300) + "';"))
	})
	mux.HandleFunc("GET /logo.svg", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		_, _ = w.Write([]byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	ctx := context.Background()
	page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	epoch := time.Now()
	for _, u := range []string{srv.URL + "/", srv.URL + "/?again", srv.URL + "/?third"} {
		if err := page.Goto(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	reqs := page.(agent.Watcher).Traffic(epoch, false).Requests
	for _, r := range reqs {
		if r.Size < -1 {
			t.Errorf("%s: size %d, want its bytes or -1", r.URL, r.Size)
		}
	}
}
