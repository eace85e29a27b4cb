package browser

import (
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/mxschmitt/playwright-go"
)

// maxBlocked bounds the blocked requests a page remembers between two steps.
const maxBlocked = 50

// guardOrigins routes the requests of bc that may leave the allowed origins: one to an
// origin outside them is aborted and remembered for Blocked; the rest continue. Non-network
// schemes (data:, blob:, about:) pass. With one allowed origin, the browser itself tells the
// requests to it apart (see outside), so the page's own requests never wait on this process.
func (p *Page) guardOrigins(bc playwright.BrowserContext, allowed []string) error {
	var match any = "**/*"
	if len(allowed) == 1 {
		match = outside(allowed[0])
	}
	return bc.Route(match, func(r playwright.Route) {
		raw := r.Request().URL()
		if originAllowed(raw, allowed) {
			_ = r.Continue()
			return
		}
		_ = r.Abort("blockedbyclient")
		p.mu.Lock()
		if len(p.blocked) < maxBlocked {
			p.blocked = append(p.blocked, r.Request().Method()+" "+raw)
		}
		p.mu.Unlock()
	})
}

// originAllowed reports whether raw is a non-network URL or one whose origin is in allowed.
func originAllowed(raw string, allowed []string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	if u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "ws" && u.Scheme != "wss" {
		return u.Scheme == "data" || u.Scheme == "blob" || u.Scheme == "about"
	}
	return slices.Contains(allowed, u.Scheme+"://"+u.Host)
}

// outside matches every URL that does not lie in origin (scheme://host[:port]): a URL that
// differs from the origin at some character, stops short of it, or goes on past it with
// anything but the path, query or fragment. The browser evaluates it, so requests to the
// origin are not intercepted at all; a regular expression cannot say "not" directly, so it
// spells out each way of differing.
func outside(origin string) *regexp.Regexp {
	var alts []string
	for i, r := range origin {
		alts = append(alts, regexp.QuoteMeta(origin[:i])+"[^"+regexp.QuoteMeta(string(r))+"]")
	}
	alts = append(alts, regexp.QuoteMeta(origin)+"[^/?#]")
	short := make([]string, 0, len(origin)+1)
	for i := range len(origin) + 1 {
		short = append(short, regexp.QuoteMeta(origin[:i]))
	}
	return regexp.MustCompile("^(?:" + strings.Join(alts, "|") + ")|^(?:" + strings.Join(short[:len(short)-1], "|") + ")$")
}
