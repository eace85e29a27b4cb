package browser

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// lookFresh is how long what one look found of a target (see look) stands in for another look
// at it: long enough to cover the caller's own work between resolving, measuring and acting,
// which calls nothing on the page, and too short for a wait on anything.
const lookFresh = 100 * time.Millisecond

// lookJS measures one element and says whether a pointer can reach it, in one script: what
// resolving, measuring and clicking a target each need to know of it.
var lookJS = `(el) => ({ box: (` + boxJS + `)(el), unreachable: (` + reachJS + `)(el) })`

// look is what the page last found of the one element a target matched: its box and whether
// a pointer can reach it. Each look at a target runs Playwright's role engine over the whole
// page, the dearest part of a call on a busy machine, so one look serves the calls that follow
// it at once: Resolve's look serves the Measure right after it, and Measure's the click.
// Any action or observation clears it.
type look struct {
	target      agent.Target
	box         agent.Box
	unreachable bool
	at          time.Time
}

// lookAnswer is lookJS's answer as Playwright returns it.
type lookAnswer struct {
	Box         agent.Box `json:"box"`
	Unreachable bool      `json:"unreachable"`
}

// keepLook keeps what a look at t found.
func (p *Page) keepLook(t agent.Target, got lookAnswer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.look = look{target: t, box: got.Box, unreachable: got.Unreachable, at: time.Now()}
}

// recentLook returns what the latest look found of t, when it was taken for t within lookFresh
// and no action came after it.
func (p *Page) recentLook(t agent.Target) (look, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.look
	return l, !l.at.IsZero() && l.target == t && time.Since(l.at) < lookFresh
}

// forgetLook clears the latest look: a box recorded with a later sample must be measured
// after it.
func (p *Page) forgetLook() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.look = look{}
}

// count counts the elements loc matches and, when it is exactly one, remembers its look
// (see look), in the one round trip counting takes.
func (p *Page) count(ctx context.Context, t agent.Target, loc playwright.Locator) (int, error) {
	raw, err := call(ctx, p.limits(), func() (any, error) {
		return loc.EvaluateAll("(els) => ({ n: els.length, look: els.length === 1 ? (" + lookJS + ")(els[0]) : null })")
	})
	if err != nil {
		return 0, err
	}
	got, _ := raw.(map[string]any)
	var n int
	switch v := got["n"].(type) {
	case int:
		n = v
	case float64:
		n = int(v)
	default:
		return 0, fmt.Errorf("count the matches: the script returned %T, not a count", raw)
	}
	if n == 0 && bySnapshotRef(t) {
		// A script on the matches runs in the page's own world, where the refs of
		// Playwright's accessibility snapshot are unknown: it sees none. Playwright counts
		// them where they are known.
		return call(ctx, p.limits(), func() (int, error) { return loc.Count() })
	}
	var seen lookAnswer
	if n == 1 && remarshal(got["look"], &seen) == nil {
		p.keepLook(t, seen)
	}
	return n, nil
}

// bySnapshotRef reports whether t, or the container it is within, is named by a ref of the
// page's accessibility snapshot (aria-ref=e5).
func bySnapshotRef(t agent.Target) bool {
	return strings.HasPrefix(t.CSS, "aria-ref=") || strings.HasPrefix(t.Within.CSS, "aria-ref=")
}
