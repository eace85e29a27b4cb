package browser

import (
	"net/url"
	"slices"

	"github.com/mxschmitt/playwright-go"
)

// maxBlocked bounds the blocked requests a page remembers between two steps.
const maxBlocked = 50

// guardOrigins routes every request of bc: one to an origin outside allowed is aborted and
// remembered for Blocked; the rest continue. Non-network schemes (data:, blob:, about:) pass.
func (p *Page) guardOrigins(bc playwright.BrowserContext, allowed []string) error {
	return bc.Route("**/*", func(r playwright.Route) {
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
