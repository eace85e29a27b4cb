package browser

import (
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestOriginAllowedComparesWholeOrigins(t *testing.T) {
	allowed := []string{"http://127.0.0.1:4197", "https://shop.example"}
	for raw, want := range map[string]bool{
		"http://127.0.0.1:4197":              true,
		"http://127.0.0.1:4197/api?x=1":      true,
		"HTTP://127.0.0.1:4197/#top":         true,
		"ws://127.0.0.1:4197/socket":         false, // another scheme is another origin
		"http://127.0.0.1:41977/":            false,
		"http://127.0.0.1:419/":              false,
		"https://127.0.0.1:4197/":            false,
		"http://127.0.0.1:4197.evil.example": false,
		"https://shop.example:443/cart":      true, // the default port, spelled out
		"https://SHOP.example/":              true,
		"https://shop.example:8443/":         false,
		"https://shop.example@evil.example/": false,
		"https://user@shop.example/":         false,
		"http://evil.example/":               false,
		"http:///nohost":                     false,
		"":                                   false,
		"data:text/plain,x":                  true,
		"blob:http://127.0.0.1:4197/1":       true,
		"about:blank":                        true,
		"file:///etc/passwd":                 false,
		"javascript:alert(1)":                false,
	} {
		if got := originAllowed(raw, allowed); got != want {
			t.Errorf("originAllowed(%q) = %v, want %v", raw, got, want)
		}
	}
}

// guarded starts a guard for allowed and an HTTP client that goes through it and follows
// no redirect, as a browser's every hop would come to the guard on its own.
func guarded(t *testing.T, allowed ...string) (*http.Client, *blockList, *egress) {
	t.Helper()
	blocked := &blockList{}
	g, err := startEgress(localGuardHost, allowed, false, nil, blocked.add)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	proxy, _ := url.Parse(g.Server())
	client := &http.Client{
		Transport: &http.Transport{Proxy: http.ProxyURL(proxy), TLSClientConfig: &tls.Config{InsecureSkipVerify: true}},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	t.Cleanup(client.CloseIdleConnections)
	return client, blocked, g
}

// counted is a server that counts the requests that reach it.
func counted(t *testing.T, tlsToo bool, h http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	f := func(w http.ResponseWriter, r *http.Request) { n.Add(1); h(w, r) }
	srv := httptest.NewUnstartedServer(http.HandlerFunc(f))
	if tlsToo {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv, &n
}

// TestTheGuardChecksEveryHop checks that the guard forwards requests to the allowed origin
// as they came, redirects included, and refuses the next hop of a redirect to another
// origin before it leaves: the other origin never hears of it.
func TestTheGuardChecksEveryHop(t *testing.T) {
	other, reached := counted(t, false, func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "other") })
	home, _ := counted(t, false, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/away" {
			http.Redirect(w, r, other.URL+"/landing?token=1", http.StatusFound)
			return
		}
		_, _ = io.WriteString(w, "home "+r.Method+" "+r.URL.RequestURI())
	})
	client, blocked, _ := guarded(t, home.URL)

	resp, err := client.Post(home.URL+"/save?x=1", "text/plain", strings.NewReader("body"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "home POST /save?x=1" {
		t.Fatalf("the allowed origin answered %q", body)
	}

	resp, err = client.Get(home.URL + "/away")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("the guard answered %d to a redirect, want the 302 passed on, not followed", resp.StatusCode)
	}
	next := resp.Header.Get("Location")
	blocked.ask("GET", next) // as the page's request event says
	if _, err := client.Get(next); err == nil {
		t.Fatalf("the redirect's next hop to %s went through", next)
	}
	if n := reached.Load(); n != 0 {
		t.Fatalf("the other origin was reached %d times", n)
	}
	if got := blocked.take(); !slices.Equal(got, []string{"GET " + next}) {
		t.Fatalf("blocked %v, want the next hop", got)
	}
}

// TestTheGuardTunnelsOnlyToAllowedOrigins checks CONNECT, which names only host and port:
// a TLS origin in the list is tunnelled, any other refused.
func TestTheGuardTunnelsOnlyToAllowedOrigins(t *testing.T) {
	home, _ := counted(t, true, func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "secure home") })
	other, reached := counted(t, true, func(w http.ResponseWriter, r *http.Request) {})
	client, blocked, _ := guarded(t, home.URL)

	resp, err := client.Get(home.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "secure home" {
		t.Fatalf("through the tunnel: %q", body)
	}
	blocked.ask("GET", other.URL+"/")
	if _, err := client.Get(other.URL + "/"); err == nil {
		t.Fatal("a tunnel to another origin was opened")
	}
	if reached.Load() != 0 {
		t.Fatal("the other origin was reached")
	}
	host := strings.TrimPrefix(other.URL, "https://")
	if got := blocked.take(); !slices.Equal(got, []string{"CONNECT " + host}) {
		t.Fatalf("blocked %v, want the CONNECT to %s", got, host)
	}
}

// TestAClosedGuardReachesNothing checks that closing the guard ends its open tunnels and
// refuses new requests, so a closed page cannot go on talking to anything.
func TestAClosedGuardReachesNothing(t *testing.T) {
	home, _ := counted(t, true, func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "ok") })
	client, _, g := guarded(t, home.URL)
	resp, err := client.Get(home.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Get(home.URL); err == nil {
		t.Fatal("a request went through a closed guard")
	}
}

// TestTheGuardIsNoWebServer checks that a request asked of the guard as of a server, not a
// proxy, is refused rather than forwarded somewhere.
func TestTheGuardIsNoWebServer(t *testing.T) {
	_, _, g := guarded(t, "http://127.0.0.1:1")
	resp, err := http.Get(g.Server() + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("status %d, want 400", resp.StatusCode)
	}
}

// TestOnlyThePagesOwnRefusalsAreReported checks that a refusal the page's request events
// account for is reported at once, and one they do not (the browser's own request) is kept
// for a moment, in case the event is still on its way, then dropped.
func TestOnlyThePagesOwnRefusalsAreReported(t *testing.T) {
	now := time.Unix(1000, 0)
	l := &blockList{now: func() time.Time { return now }}
	l.add("GET", "http://evil.example/pixel.png")
	l.add("CONNECT", "content-autofill.googleapis.com:443")
	l.add("CONNECT", "late.example:443")
	l.ask("GET", "http://evil.example/pixel.png")
	if got := l.take(); !slices.Equal(got, []string{"GET http://evil.example/pixel.png"}) {
		t.Fatalf("took %v, want the page's own request only", got)
	}
	l.ask("GET", "https://late.example/x") // its event came after the refusal
	now = now.Add(askedGrace)
	if got := l.take(); !slices.Equal(got, []string{"CONNECT late.example:443"}) {
		t.Fatalf("took %v, want the late one; the browser's own dropped", got)
	}
	if got := l.take(); len(got) != 0 {
		t.Fatalf("took %v again", got)
	}
}

// TestAnOriginThatDropsTheConnectionFailsThePageRequest checks that the guard passes on an
// origin's failure to answer as a failure, not as an answer of its own, and never sends the
// request again by itself (Go's transport would, on a kept-alive connection, for a request
// with an Idempotency-Key): a page that handles a lost answer must see one, once.
func TestAnOriginThatDropsTheConnectionFailsThePageRequest(t *testing.T) {
	var sends atomic.Int32
	home, _ := counted(t, false, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/send" {
			_, _ = io.WriteString(w, "compose")
			return
		}
		sends.Add(1)
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			conn.Close()
		}
	})
	client, _, _ := guarded(t, home.URL)
	resp, err := client.Get(home.URL + "/") // the guard's connection to the origin now in use
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	req, _ := http.NewRequest(http.MethodPost, home.URL+"/send", strings.NewReader("hi"))
	req.Header.Set("Idempotency-Key", "op-1")
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the dropped send was answered %d", resp.StatusCode)
	}
	if n := sends.Load(); n != 1 {
		t.Fatalf("the origin received the send %d times: the guard sent again what the page sent once", n)
	}
}

// TestTheGuardReachesNoLinkLocalAddress allows a link-local origin, as a task with
// --allow-link-local would name it, to a guard that was not told the user allowed such hosts:
// the guard refuses to connect, for a request and for a tunnel, before anything is sent.
func TestTheGuardReachesNoLinkLocalAddress(t *testing.T) {
	const metadata = "http://169.254.169.254"
	client, _, g := guarded(t, metadata, "https://169.254.169.254")
	if resp, err := client.Get(metadata + "/latest/meta-data/"); err == nil {
		resp.Body.Close()
		if resp.StatusCode < 500 {
			t.Errorf("the metadata address answered %d through the guard", resp.StatusCode)
		}
	}
	if resp, err := client.Get("https://169.254.169.254/"); err == nil {
		resp.Body.Close()
		t.Errorf("a tunnel to the metadata address was opened: %d", resp.StatusCode)
	}
	failures := fmt.Sprint(g.failed)
	if !strings.Contains(failures, "where cloud machines serve their credentials") {
		t.Errorf("the guard's failures %s do not say why", failures)
	}
}
