package browser

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mxschmitt/playwright-go"
)

// maxBlocked bounds the blocked requests a page remembers between two steps.
const maxBlocked = 50

// askedGrace is how long a refused request waits for the page's own word that it asked for
// it (Playwright's request event, which travels apart from the request itself).
const askedGrace = time.Second

// maxAsked bounds the requests a page's blockList remembers it asked for.
const maxAsked = 4096

// blockList is what a page's origins guard refused since it was last taken, bounded by
// maxBlocked. The guard also refuses the browser's own requests made in the page's context
// (autofill's look-ups, a cross-origin favicon), which the page never asked for: only a
// refusal the page's request events account for is reported; the rest are refused silently.
type blockList struct {
	now     func() time.Time // the clock refusals are timed by; nil is time.Now
	mu      sync.Mutex
	asked   map[string]bool // request keys (see requestKeys) the page asked for
	pending []refusal
}

// refusal is one refused request, as "METHOD URL" (CONNECT names only host and port).
type refusal struct {
	req string
	at  time.Time
}

// ask notes that the page asked for method url.
func (l *blockList) ask(method, raw string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.asked == nil {
		l.asked = map[string]bool{}
	}
	for _, k := range requestKeys(method, raw) {
		if len(l.asked) < maxAsked {
			l.asked[k] = true
		}
	}
}

// add remembers one refused request.
func (l *blockList) add(method, raw string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.pending) < maxBlocked {
		l.pending = append(l.pending, refusal{method + " " + raw, l.clock()})
	}
}

// take returns the refusals of the page's requests since the last take; one the page has
// not (yet) accounted for waits askedGrace, then counts as the browser's own and goes.
func (l *blockList) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	var wait []refusal
	for _, r := range l.pending {
		switch {
		case l.asked[r.req]:
			out = append(out, r.req)
		case l.clock().Sub(r.at) < askedGrace:
			wait = append(wait, r)
		}
	}
	l.pending = wait
	return out
}

// clock is the time now.
func (l *blockList) clock() time.Time {
	if l.now == nil {
		return time.Now()
	}
	return l.now()
}

// requestKeys are the refusals a page's request for method raw may show up as at the
// guard: the request itself, or the CONNECT of its host and port.
func requestKeys(method, raw string) []string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil
	}
	port := u.Port()
	if port == "" {
		port = defaultPort(u.Scheme)
	}
	return []string{method + " " + raw, "CONNECT " + net.JoinHostPort(u.Hostname(), port)}
}

// originAllowed reports whether raw is a non-network URL or one whose origin is in allowed,
// default ports and letter case aside.
func originAllowed(raw string, allowed []string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	switch u.Scheme {
	case "http", "https", "ws", "wss":
	default:
		return u.Scheme == "data" || u.Scheme == "blob" || u.Scheme == "about"
	}
	if u.Host == "" || u.User != nil {
		return false
	}
	origin := originOf(u.Scheme, u.Host)
	return slices.ContainsFunc(allowed, func(a string) bool {
		v, err := url.Parse(a)
		return err == nil && originOf(v.Scheme, v.Host) == origin
	})
}

// navigationFailure is a navigation of the page's main frame that failed: where the browser
// was sent (a redirect's target, when a redirect led there) and why.
type navigationFailure struct {
	URL, Failure string
}

// noteNavigationFailure keeps r for navFailed when it is a failed navigation of the main
// frame. A navigation that turns into a download is aborted by Chromium, and so not a failure.
func (p *Page) noteNavigationFailure(r playwright.Request) {
	if !r.IsNavigationRequest() || r.Frame() != p.driven().MainFrame() {
		return
	}
	why := "failed"
	if err := r.Failure(); err != nil {
		why = p.guard.explain(r.Method(), r.URL(), err.Error())
	}
	if strings.Contains(why, "ERR_ABORTED") {
		return
	}
	keepNewest(p.navFailed, navigationFailure{URL: r.URL(), Failure: why})
}

// explain says why the navigation failed, naming the origins guard when it was the guard.
func (f navigationFailure) explain(allowed []string) string {
	if len(allowed) > 0 && !originAllowed(f.URL, allowed) {
		return fmt.Sprintf("the browser was sent to %s, outside the task's origins (%s), and the origins guard blocked it",
			f.URL, strings.Join(allowed, ", "))
	}
	return fmt.Sprintf("the browser was sent to %s, which failed: %s", f.URL, f.Failure)
}
