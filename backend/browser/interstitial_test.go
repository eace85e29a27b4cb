package browser

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"observatory/backend/agent"
)

// TestAnAboutBlankInterstitialIsNotThePage signs in through a popup that, as sign-in popups
// do, moves its opener: first to about:blank, then (unless it stays) 800 ms later to the
// signed-in page. An observation taken while the page is blank waits for where it goes and
// observes the signed-in page; when the page stays blank, that is what is observed.
func TestAnAboutBlankInterstitialIsNotThePage(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	html := func(w http.ResponseWriter, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(body))
	}
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		html(w, `<!doctype html><title>Shop</title><button onclick="window.open('/popup?'+location.search.slice(1))">Sign in</button>`)
	})
	mux.HandleFunc("GET /popup", func(w http.ResponseWriter, r *http.Request) {
		onward := `setTimeout(() => { opener.location.href = "/signed-in"; }, 800);`
		if r.URL.Query().Has("stay") {
			onward = ""
		}
		html(w, `<!doctype html><title>Sign in</title><script>opener.location.href = "about:blank";`+onward+`</script>`)
	})
	mux.HandleFunc("GET /signed-in", func(w http.ResponseWriter, r *http.Request) {
		html(w, `<!doctype html><title>Shop</title><h1>Welcome back</h1>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	for _, tt := range []struct{ query, url, heading string }{
		{"", srv.URL + "/signed-in", "Welcome back"},
		{"?stay", "about:blank", ""},
	} {
		page, err := testBrowser(t).NewPage(context.Background(), agent.PageOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _, _ = page.Close() })
		if err := page.Goto(context.Background(), srv.URL+"/"+tt.query); err != nil {
			t.Fatal(err)
		}
		mustObserve(t, page)
		mustAct(t, page, agent.ActClick, "button", "Sign in", "")
		p := page.(*Page)
		for deadline := time.Now().Add(5 * time.Second); p.page.URL() != "about:blank"; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%q: the popup never took its opener to about:blank; it is at %s", tt.query, p.page.URL())
			}
		}
		s := mustObserve(t, page)
		heading := ""
		for _, pr := range s.Pairs {
			if pr.Role == "heading" {
				heading = pr.Name
			}
		}
		if s.URL != tt.url || heading != tt.heading {
			t.Errorf("%q: observed %s with heading %q, want %s with %q", tt.query, s.URL, heading, tt.url, tt.heading)
		}
	}
}
