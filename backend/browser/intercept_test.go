package browser

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest/policy"
	"observatory/backend/tlsca"
)

// TestTheGuardHoldsRequestsInsideTLS drives real Chromium, as an outside agent would, against an
// https origin: the guard reads inside its TLS with a certificate of the browser's own
// authority, so a GET passes unasked, a POST is held, denied it never reaches the origin and is
// recorded refused, approved it reaches it once, whole. An https origin outside the task's is
// still refused at its CONNECT, and the authority never touches the disk.
func TestTheGuardHoldsRequestsInsideTLS(t *testing.T) {
	needDriver(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // the driver's and Chromium's temporary files, searched below

	origin, reached, saves := formOrigin(t)
	other, otherReached := counted(t, true, func(w http.ResponseWriter, r *http.Request) {})
	p, approve, questions := heldPage(t, Options{}, origin, other)
	if why := p.Unheld(); why != "" {
		t.Fatalf("a launched browser's page says %q", why)
	}
	pg := p.page
	epoch := time.Now()

	if _, err := pg.Goto(origin.URL); err != nil {
		t.Fatalf("the https origin did not load through the guard: %v", err)
	}
	if n := len(questions()); n != 0 {
		t.Fatalf("a GET was held: %d questions", n)
	}
	if n := reached.Load(); n != 1 {
		t.Fatalf("the origin was reached %d times by the page's load, want once", n)
	}

	// Denied: the origin never hears of it, and the request is recorded refused.
	if err := pg.GetByRole("button").Click(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return len(questions()) == 1 })
	q := questions()[0]
	if q.Method != "POST" || q.URL != origin.URL+"/save" || q.Origin != origin.URL ||
		q.Body != "title=Spectral+scan&password="+agent.Mask {
		t.Fatalf("asked about %+v", q)
	}
	var post agent.Request
	waitFor(t, func() bool {
		for _, r := range p.Traffic(epoch, false).Requests {
			if r.Method == "POST" {
				post = r
				return true
			}
		}
		return false
	})
	if !post.Refused || post.URL != origin.URL+"/save" || !strings.Contains(post.Failure, "not approved") {
		t.Fatalf("the denied POST is recorded as %+v", post)
	}
	if n := reached.Load(); n != 1 {
		t.Fatalf("the origin was reached %d times, the denied POST among them", n)
	}

	// Approved: it reaches the origin once, whole.
	waitFor(t, func() bool { return strings.HasPrefix(pg.URL(), "chrome-error:") }) // the failed form's page
	approve.Store(true)
	if _, err := pg.Goto(origin.URL); err != nil {
		t.Fatal(err)
	}
	if err := pg.GetByRole("button").Click(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { title, _ := pg.Title(); return title == "saved" })
	if got := saves(); !slices.Equal(got, []string{"POST title=Spectral+scan&password=hunter2"}) {
		t.Fatalf("the origin received %q", got)
	}
	if n := len(questions()); n != 2 {
		t.Fatalf("asked %d times, want twice", n)
	}

	// A WebSocket of the origin goes through, both ways.
	echo, err := pg.Evaluate(`() => new Promise((ok, fail) => {
		const ws = new WebSocket(location.origin.replace("https:", "wss:") + "/ws");
		ws.onopen = () => ws.send("ping");
		ws.onmessage = (m) => ok(m.data);
		ws.onerror = () => fail(new Error("the WebSocket failed"));
	})`)
	if err != nil || echo != "echo ping" {
		t.Fatalf("the WebSocket answered %v, %v", echo, err)
	}

	// Outside the task's origins: refused at its CONNECT, unread.
	if _, err := pg.Goto(other.URL); err == nil {
		t.Fatal("an https origin outside the task's loaded")
	}
	if n := otherReached.Load(); n != 0 {
		t.Fatalf("the origin outside the task's was reached %d times", n)
	}
	waitFor(t, func() bool { return slices.Contains(p.Blocked(), "CONNECT "+strings.TrimPrefix(other.URL, "https://")) })

	authority := p.b.reading.authority
	leaf, err := authority.Leaf("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	// No file the browser or the driver wrote holds the authority or a certificate it
	// minted, nor anything in PEM: while the browser runs, and once it is closed.
	if n := noCertificateIn(t, tmp, authority.Certificate().Raw, leaf.Leaf.Raw); n == 0 {
		t.Fatal("the browser's temporary files were not where the test looks")
	}
	_, _ = p.Close()
	_ = p.b.Close()
	noCertificateIn(t, tmp, authority.Certificate().Raw, leaf.Leaf.Raw)
}

// noCertificateIn fails t when a file below dir holds one of certs (DER) or a PEM block; it
// returns how many files it read.
func noCertificateIn(t *testing.T, dir string, certs ...[]byte) int {
	t.Helper()
	read := 0
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		read++
		for _, c := range certs {
			if bytes.Contains(data, c) {
				t.Errorf("%s holds a certificate of the guard's authority", path)
			}
		}
		if bytes.Contains(data, []byte("-----BEGIN ")) {
			t.Errorf("%s holds a PEM block", path)
		}
		return nil
	})
	return read
}

// formOrigin is an https origin with a form that POSTs to /save (what the origin received is
// saves) and a WebSocket echo at /ws; reached counts the requests that reached it.
func formOrigin(t *testing.T) (origin *httptest.Server, reached *atomic.Int32, saves func() []string) {
	var mu sync.Mutex
	var saved []string
	origin, reached = counted(t, true, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ws":
			c, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer c.Close()
			if kind, msg, err := c.ReadMessage(); err == nil {
				_ = c.WriteMessage(kind, append([]byte("echo "), msg...))
			}
		case "/save":
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			saved = append(saved, r.Method+" "+string(b))
			mu.Unlock()
			_, _ = io.WriteString(w, "<title>saved</title>saved")
		default:
			_, _ = io.WriteString(w, `<title>form</title><form method="post" action="/save">`+
				`<label>Title <input name="title" value="Spectral scan"></label>`+
				`<label>Password <input name="password" type="password" value="hunter2"></label>`+
				`<button>Save</button></form>`)
		}
	})
	return origin, reached, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(saved)
	}
}

// holdAsking makes p hold the held methods, answering approve; it returns the questions asked.
// heldPage launches headless Chromium with opts, trusting the certificates of origins, and
// opens a page of the first origin whose held requests holdAsking answers: approved while
// approve is set. The browser closes when the test ends.
func heldPage(t *testing.T, opts Options, origins ...*httptest.Server) (*Page, *atomic.Bool, func() []agent.HeldRequest) {
	t.Helper()
	roots := x509.NewCertPool()
	for _, o := range origins {
		roots.AddCert(o.Certificate())
	}
	opts.Headless, opts.OriginRoots = true, roots
	b, err := Launch(context.Background(), opts)
	if err != nil {
		t.Fatalf("launch: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	ap, err := b.NewPage(context.Background(), agent.PageOptions{Origins: []string{origins[0].URL}})
	if err != nil {
		t.Fatal(err)
	}
	p := ap.(*Page)
	t.Cleanup(func() { p.Close() })
	approve := &atomic.Bool{}
	return p, approve, holdAsking(t, p, approve)
}

func holdAsking(t *testing.T, p *Page, approve *atomic.Bool) func() []agent.HeldRequest {
	var mu sync.Mutex
	var asked []agent.HeldRequest
	if err := p.HoldRequests(agent.HeldMethods, func(_ context.Context, r agent.HeldRequest) bool {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, r)
		return approve.Load()
	}); err != nil {
		t.Fatal(err)
	}
	return func() []agent.HeldRequest {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(asked)
	}
}

// waitFor waits, a bounded time, until ok holds.
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !ok(); {
		if time.Now().After(deadline) {
			t.Fatal("gave up waiting")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestAGuardThatCannotReadTLSSaysWhatGoesUnheld checks Unheld: a guard without an authority
// (a browser reached elsewhere) names the task's https and wss origins, whose requests it
// only tunnels; one that reads TLS, or guards plain http alone, names none.
func TestAGuardThatCannotReadTLSSaysWhatGoesUnheld(t *testing.T) {
	authority, err := tlsca.New(nil, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		reading *tlsReading
		allowed []string
		want    string
	}{
		{nil, []string{"https://shop.example", "http://127.0.0.1:8080", "wss://live.example"}, "the requests to https://shop.example, wss://live.example were not held"},
		{nil, []string{"http://127.0.0.1:8080"}, ""},
		{&tlsReading{authority: authority}, []string{"https://shop.example"}, ""},
	} {
		g, err := startEgress(localGuardHost, c.allowed, false, c.reading, func(string, string) {})
		if err != nil {
			t.Fatal(err)
		}
		got := (&Page{guard: g}).Unheld()
		_ = g.Close()
		if c.want == "" && got != "" || !strings.HasPrefix(got, c.want) {
			t.Errorf("%v (reads TLS: %v): %q, want %q…", c.allowed, c.reading != nil, got, c.want)
		}
	}
}

// TestTheGuardVerifiesTheOriginItReadsFor checks the guard's own side of an intercepted
// CONNECT, with Go's client for a browser that trusts the authority: an origin whose
// certificate the guard's roots accept answers through it; one they do not is never sent the
// request, the guard saying why; a request for another host than the CONNECT's is refused;
// and closing the guard cuts the connections it reads.
func TestTheGuardVerifiesTheOriginItReadsFor(t *testing.T) {
	authority, err := tlsca.New(nil, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	home, _ := counted(t, true, func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "home "+r.Host) })
	var forgedReached atomic.Int32
	forged := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { forgedReached.Add(1) }))
	stranger, err := tlsca.New(nil, time.Hour) // an authority no one trusts
	if err != nil {
		t.Fatal(err)
	}
	strangerLeaf, err := stranger.Leaf("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	forged.TLS = &tls.Config{Certificates: []tls.Certificate{*strangerLeaf}}
	forged.Config.ErrorLog = log.New(io.Discard, "", 0) // the guard's refusal of its certificate
	forged.StartTLS()
	defer forged.Close()
	roots := x509.NewCertPool()
	roots.AddCert(home.Certificate()) // not forged's
	g, err := startEgress(localGuardHost, []string{home.URL, forged.URL}, false, &tlsReading{authority: authority, roots: roots}, func(string, string) {})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	proxy, _ := url.Parse(g.Server())
	trusting := x509.NewCertPool()
	trusting.AddCert(authority.Certificate())
	transport := &http.Transport{Proxy: http.ProxyURL(proxy), TLSClientConfig: &tls.Config{RootCAs: trusting}}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport}

	resp, err := client.Get(home.URL + "/")
	if err != nil {
		t.Fatalf("the origin did not answer through the guard: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := "home " + strings.TrimPrefix(home.URL, "https://"); string(body) != want || resp.TLS.PeerCertificates[0].Issuer.CommonName != authority.Certificate().Subject.CommonName {
		t.Fatalf("answered %q by %s, want %q by the guard's authority", body, resp.TLS.PeerCertificates[0].Issuer, want)
	}

	if _, err := client.Get(forged.URL + "/"); err == nil {
		t.Fatal("an origin whose certificate the guard does not trust answered")
	}
	if n := forgedReached.Load(); n != 0 {
		t.Fatalf("the untrusted origin was sent %d requests", n)
	}
	if why := g.explain("GET", forged.URL+"/", guardMark); !strings.Contains(why, "could not be reached") || !strings.Contains(why, "certificate") {
		t.Fatalf("the guard explains the failure as %q", why)
	}

	// The CONNECT names home; the request inside names forged.
	req, _ := http.NewRequest("GET", home.URL+"/", nil)
	req.Host = strings.TrimPrefix(forged.URL, "https://")
	if _, err := client.Do(req); err == nil {
		t.Fatal("a request for another host than the CONNECT's went through")
	}

	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Get(home.URL + "/"); err == nil {
		t.Fatal("a request went through a closed guard")
	}
}

// puppeteerSaves is an outside agent written with Puppeteer: it connects to the browser's
// DevTools endpoint, takes the page at START, submits its form, and once more after a refusal.
const puppeteerSaves = `
import puppeteer from "puppeteer-core";
const browser = await puppeteer.connect({ browserURL: process.env.CDP, defaultViewport: null });
const page = (await browser.pages()).find((p) => p.url().startsWith(process.env.START));
for (let i = 0; i < 2; i++) {
  await page.goto(process.env.START);
  await Promise.all([page.waitForNavigation().catch(() => {}), page.click("button")]);
  if (await page.title() === "saved") break;
}
console.log(await page.title());
await browser.disconnect();
`

// TestAPuppeteerAgentsPostIsHeldInsideTLS: a real outside agent, Puppeteer from npm over CDP,
// submits a form to an https origin; the guard holds its POST inside TLS: denied, the origin
// never hears of it; approved, on the agent's second try, it reaches the origin once, whole.
func TestAPuppeteerAgentsPostIsHeldInsideTLS(t *testing.T) {
	needDriver(t)
	agents, _ := filepath.Abs(filepath.Join("..", "outside", "testdata", "agents"))
	if _, err := exec.LookPath("node"); err != nil {
		policy.Unavailable(t, err)
	}
	if _, err := os.Stat(filepath.Join(agents, "node_modules", "puppeteer-core")); err != nil {
		policy.Unavailable(t, err)
	}
	origin, _, saves := formOrigin(t)
	p, approve, questions := heldPage(t, Options{DevTools: true}, origin)
	if _, err := p.page.Goto(origin.URL); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "--input-type=module", "-e", puppeteerSaves)
	cmd.Dir = agents
	cmd.Env = append(os.Environ(), "CDP="+p.DevToolsURL(), "START="+origin.URL)
	out := make(chan string, 1)
	go func() {
		b, err := cmd.CombinedOutput()
		out <- strings.TrimSpace(string(b)) + fmt.Sprint(" ", err)
	}()
	// The first question is denied; the agent tries again, and that one is approved.
	waitFor(t, func() bool { return len(questions()) > 0 })
	if got := saves(); len(got) != 0 {
		t.Fatalf("the origin received %q before any approval", got)
	}
	approve.Store(true)
	if got := <-out; !strings.HasPrefix(got, "saved") {
		t.Fatalf("the agent ended with %q", got)
	}
	q := questions()
	if len(q) != 2 || q[0].Method != "POST" || q[0].URL != origin.URL+"/save" {
		t.Fatalf("asked %+v, want the POST twice", q)
	}
	if got := saves(); !slices.Equal(got, []string{"POST title=Spectral+scan&password=hunter2"}) {
		t.Fatalf("the origin received %q, want the approved POST once", got)
	}
}
