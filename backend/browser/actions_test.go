package browser

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"observatory/backend/agent"
)

// TestEveryLocatorResolvesExactlyOneElement checks each kind of target a task file may name.
func TestEveryLocatorResolvesExactlyOneElement(t *testing.T) {
	t.Parallel()
	page := openLab(t, agent.PageOptions{})
	mustAct(t, page, agent.ActClick, "button", "New booking", "")
	for _, tt := range []struct {
		target agent.Target
		want   error
	}{
		{agent.Target{Label: "Title"}, nil},
		{agent.Target{Placeholder: "Search bookings"}, nil},
		{agent.Target{TestID: "count"}, nil},
		{agent.Target{Text: "1 booking"}, nil},
		{agent.Target{CSS: "#search"}, nil},
		{agent.Target{Role: "checkbox", Name: "Projector"}, nil},
		{agent.Target{Label: "Nothing like it"}, agent.ErrNoTarget},
		{agent.Target{CSS: "button"}, agent.ErrAmbiguousTarget},
		{agent.Target{}, nil},
	} {
		err := page.Resolve(context.Background(), tt.target)
		switch {
		case tt.target.IsZero():
			if err == nil || !strings.Contains(err.Error(), "names no element") {
				t.Errorf("an empty target resolved: %v", err)
			}
		case !errors.Is(err, tt.want) || (tt.want == nil && err != nil):
			t.Errorf("Resolve(%s) = %v, want %v", tt.target, err, tt.want)
		}
	}
}

// TestEveryActionKindActs drives fill by label, select by an option's label, check, uncheck,
// hover, press on a target and on the focused element, wait_for and navigate.
func TestEveryActionKindActs(t *testing.T) {
	t.Parallel()
	page := openLab(t, agent.PageOptions{})
	ctx := context.Background()
	act := func(a agent.Action) {
		t.Helper()
		if err := page.Act(ctx, a); err != nil {
			t.Fatalf("%s %s: %v", a.Kind, a.Target, err)
		}
	}
	act(agent.Action{Kind: agent.ActHover, Target: agent.Target{CSS: "#hover-me"}})
	act(agent.Action{Kind: agent.ActWaitFor, Target: agent.Target{Text: "hovered"}})
	act(agent.Action{Kind: agent.ActFill, Target: agent.Target{Placeholder: "Search bookings"}, Value: "blue"})
	act(agent.Action{Kind: agent.ActPress, Target: agent.Target{Placeholder: "Search bookings"}, Value: "Enter"})
	act(agent.Action{Kind: agent.ActWaitFor, Target: agent.Target{Text: "searched blue"}})
	act(agent.Action{Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "New booking"}})
	act(agent.Action{Kind: agent.ActFill, Target: agent.Target{Label: "Title"}, Value: "Retro"})
	act(agent.Action{Kind: agent.ActSelect, Target: agent.Target{Role: "combobox", Name: "Room"}, Value: "Red"})
	act(agent.Action{Kind: agent.ActCheck, Target: agent.Target{Role: "checkbox", Name: "Projector"}})
	s := mustObserve(t, page)
	values := map[string]string{}
	for _, f := range s.Fields {
		values[f.Name] = f.Value
	}
	if values["Title"] != "Retro" || values["Room"] != "red" || values["Projector"] != "true" {
		t.Fatalf("fields after acting: %v", values)
	}
	act(agent.Action{Kind: agent.ActUncheck, Target: agent.Target{Role: "checkbox", Name: "Projector"}})
	act(agent.Action{Kind: agent.ActPress, Value: "Escape"}) // the focused element: the dialog closes
	if s := mustObserve(t, page); s.DialogOpen {
		t.Errorf("Escape on the focused element left the dialog open")
	}
	act(agent.Action{Kind: agent.ActNavigate, Value: "about:blank"})
	if s := mustObserve(t, page); s.URL != "about:blank" {
		t.Errorf("navigate left the page at %s", s.URL)
	}
}

// TestRequestsOutsideTheOriginsAreBlockedAndRecorded checks that a page guarded to its own
// origin never reaches another one, and says what it refused.
func TestRequestsOutsideTheOriginsAreBlockedAndRecorded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	home, other := labServer(t), labServer(t) // two origins: two ports
	page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{Origins: []string{home}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	if err := page.Goto(ctx, home); err != nil {
		t.Fatal(err)
	}
	if b := page.Blocked(); len(b) != 0 {
		t.Fatalf("the start page's own requests were blocked: %v", b)
	}
	if _, err := page.(*Page).page.Evaluate("url => window.beacon(url)", other+"/pixel.png"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	var blocked []string
	for time.Now().Before(deadline) && len(blocked) == 0 {
		blocked = page.Blocked()
		time.Sleep(20 * time.Millisecond)
	}
	if !slices.Contains(blocked, "GET "+other+"/pixel.png") {
		t.Fatalf("blocked %v, want the request to %s", blocked, other)
	}
	if err := page.Goto(ctx, other); err == nil {
		t.Errorf("navigating to %s outside the origins succeeded", other)
	}
}

// TestARedirectToAnotherOriginIsBlockedAtItsSecondHop checks that the origins guard sees
// every hop: a link on the allowed origin that redirects elsewhere fails at the redirect's
// target, which never hears of it, and the page says what it refused.
func TestARedirectToAnotherOriginIsBlockedAtItsSecondHop(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var reached atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		_, _ = io.WriteString(w, "<title>elsewhere</title>")
	}))
	t.Cleanup(other.Close)
	home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.URL+"/landing", http.StatusFound)
		case "/pixel":
			http.Redirect(w, r, other.URL+"/pixel.png", http.StatusTemporaryRedirect)
		default:
			_, _ = io.WriteString(w, `<title>home</title><img src="/pixel" alt="pixel">`)
		}
	}))
	t.Cleanup(home.Close)
	page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{Origins: []string{home.URL}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	if err := page.Goto(ctx, home.URL); err != nil {
		t.Fatal(err)
	}
	err = page.Goto(ctx, home.URL+"/away")
	if err == nil || !strings.Contains(err.Error(), other.URL+"/landing lies outside the task's origins") || strings.Contains(err.Error(), guardMark) {
		t.Errorf("the redirect to another origin: %v; want the guard's reason naming the hop it blocked", err)
	}
	if n := reached.Load(); n != 0 {
		t.Fatalf("the other origin was reached %d times", n)
	}
	blocked := page.Blocked()
	for _, want := range []string{"GET " + other.URL + "/pixel.png", "GET " + other.URL + "/landing"} {
		if !slices.Contains(blocked, want) {
			t.Errorf("blocked %v, want %q among them", blocked, want)
		}
	}
}

// TestAnUnreachableOriginSaysSo loads an allowed origin nothing listens on: the load fails
// saying the origin could not be reached, and why, not with the browser's word for the
// guard's refusal.
func TestAnUnreachableOriginSaysSo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{Origins: []string{gone.URL}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	err = page.Goto(ctx, gone.URL+"/")
	if err == nil || !strings.Contains(err.Error(), "the origin could not be reached: dial") || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("loading %s, where nothing listens: %v; want it to say the origin could not be reached", gone.URL, err)
	}
}

// TestOnlyWebURLsLoad checks that a page refuses to load what no request would carry past
// the origins guard: this machine's files, browser pages, script URLs; the page stays where
// it was.
func TestOnlyWebURLsLoad(t *testing.T) {
	t.Parallel()
	page := openLab(t, agent.PageOptions{})
	home := page.(*Page).page.URL()
	for _, u := range []string{"file:///etc/passwd", "FILE:///etc/hostname", "view-source:file:///etc/passwd", "chrome://version", "javascript:alert(1)", "/relative"} {
		if err := page.Goto(context.Background(), u); err == nil || !strings.Contains(err.Error(), "a page loads only http, https, about: and data: URLs") {
			t.Errorf("loading %s: %v; want it refused", u, err)
		}
	}
	if got := page.(*Page).page.URL(); got != home {
		t.Errorf("the page moved from %s to %s", home, got)
	}
}

// TestWebSocketsGoThroughTheOriginsGuard checks that a page's WebSocket to its own origin
// works through the guard, and one to another origin is refused before it reaches it.
func TestWebSocketsGoThroughTheOriginsGuard(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	echo := func(reached *atomic.Int32) http.HandlerFunc {
		up := websocket.Upgrader{}
		return func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/ws" {
				_, _ = io.WriteString(w, "<title>sockets</title>")
				return
			}
			reached.Add(1)
			c, err := up.Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer c.Close()
			if kind, msg, err := c.ReadMessage(); err == nil {
				_ = c.WriteMessage(kind, append([]byte("echo "), msg...))
			}
		}
	}
	var homeHits, otherHits atomic.Int32
	home := httptest.NewServer(echo(&homeHits))
	t.Cleanup(home.Close)
	other := httptest.NewServer(echo(&otherHits))
	t.Cleanup(other.Close)
	page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{Origins: []string{home.URL}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	if err := page.Goto(ctx, home.URL); err != nil {
		t.Fatal(err)
	}
	talk := `url => new Promise(done => {
		const ws = new WebSocket(url);
		ws.onopen = () => ws.send("hi");
		ws.onmessage = e => done(String(e.data));
		ws.onerror = () => done("error");
	})`
	ws := func(base string) string { return "ws" + strings.TrimPrefix(base, "http") + "/ws" }
	got, err := page.(*Page).page.Evaluate(talk, ws(home.URL))
	if err != nil || got != "echo hi" {
		t.Fatalf("the page's own WebSocket said %v (%v), want the echo", got, err)
	}
	got, err = page.(*Page).page.Evaluate(talk, ws(other.URL))
	if err != nil || got != "error" {
		t.Fatalf("a WebSocket to another origin said %v (%v), want an error", got, err)
	}
	if n := otherHits.Load(); n != 0 {
		t.Fatalf("the other origin was reached %d times", n)
	}
	deadline := time.Now().Add(5 * time.Second)
	var blocked []string
	for time.Now().Before(deadline) && len(blocked) == 0 {
		blocked = page.Blocked()
		time.Sleep(20 * time.Millisecond)
	}
	if len(blocked) == 0 || !strings.Contains(blocked[0], strings.TrimPrefix(other.URL, "http://")) {
		t.Fatalf("blocked %v, want the WebSocket to %s", blocked, other.URL)
	}
}

// TestMaskedTargetsAreHiddenInScreenshots checks that a masked field's pixels change, as
// Playwright's mask paints over it.
func TestMaskedTargetsAreHiddenInScreenshots(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	page := openLab(t, agent.PageOptions{MediaDir: dir, Media: agent.Media{Screenshots: true}})
	mustAct(t, page, agent.ActClick, "button", "New booking", "")
	if err := page.Act(context.Background(), agent.Action{Kind: agent.ActFill, Target: agent.Target{Label: "Title"}, Value: "hunter2"}); err != nil {
		t.Fatal(err)
	}
	plain := mustObserve(t, page)
	page.Mask(agent.Target{Label: "Title"})
	masked := mustObserve(t, page)
	if plain.Screenshot == "" || plain.Screenshot == masked.Screenshot {
		t.Fatalf("screenshots %q and %q: want the masked frame to differ", plain.Screenshot, masked.Screenshot)
	}
	for _, name := range []string{plain.Screenshot, masked.Screenshot} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
}
