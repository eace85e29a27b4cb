package browser

import (
	"context"
	"testing"

	"observatory/backend/agent"
)

// TestTheApproachMovesThePointerOnlyWhereItsChecksHold: the one-call approach vouches for a
// point only where Playwright's hover would move the pointer at once, on a control in view,
// its own or in a shadow root; it refuses a covered control, a moving one, a hidden one and
// one out of view. A hover on each then behaves as Playwright's always did: the covered and
// the moving one are never hovered and fail, the one out of view is scrolled to and hovered.
func TestTheApproachMovesThePointerOnlyWhereItsChecksHold(t *testing.T) {
	t.Parallel()
	page := openTestPage(t, "approach.html", agent.PageOptions{}).(*Page)
	ctx := context.Background()
	hovered := func() string {
		t.Helper()
		v, err := page.page.Evaluate(`window.lastOver`)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := v.(string)
		return s
	}
	for _, c := range []struct {
		name   string
		vouch  bool // the approach's own call gives a point
		hovers bool // a hover moves the pointer onto it (by either way)
	}{
		{"Plain", true, true},
		{"Shadowed", true, true},
		{"Covered", false, false},
		{"Moving", false, false},
		{"Hidden", false, false},
		{"Below", false, true},
	} {
		target := agent.Target{Role: "button", Name: c.name}
		loc, err := page.locate(target)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := page.approachPoint(ctx, loc); ok != c.vouch {
			t.Errorf("%s: the approach gave a point: %v, want %v", c.name, ok, c.vouch)
		}
		err = page.Act(ctx, agent.Action{Kind: agent.ActHover, Target: target, TimeoutMS: 600})
		if got := hovered(); (err == nil) != c.hovers || (got == c.name) != c.hovers {
			t.Errorf("%s: hover error %v, pointer over %q; want it over the control: %v", c.name, err, got, c.hovers)
		}
	}
}
