package browser

import (
	"context"
	"testing"
	"time"

	"observatory/backend/agent"
)

// TestOneLookServesOnlyTheCallsRightAfterIt checks that what Resolve found of a target is
// Measure's answer right after it, and that a look grown older than lookFresh, or followed by
// an action or an observation, is taken again: the box then shows where the element went.
func TestOneLookServesOnlyTheCallsRightAfterIt(t *testing.T) {
	t.Parallel()
	page := openTestPage(t, "quiet.html", agent.PageOptions{}).(*Page)
	ctx := context.Background()
	save := agent.Target{Role: "button", Name: "Save"}
	move := func(px string) {
		t.Helper()
		if _, err := page.page.Evaluate(`(px) => { document.querySelector("#profile button").style.marginLeft = px }`, px); err != nil {
			t.Fatal(err)
		}
	}
	measure := func() agent.Box {
		t.Helper()
		b, err := page.Measure(ctx, save)
		if err != nil {
			t.Fatalf("measure: %v", err)
		}
		return b
	}
	if err := page.Resolve(ctx, save); err != nil {
		t.Fatalf("resolve: %v", err)
	}
	seen, fresh := page.recentLook(save)
	if !fresh || seen.unreachable || seen.box.Width == 0 {
		t.Fatalf("resolving kept no look at the one element: %+v, fresh %v", seen, fresh)
	}
	if b := measure(); b != seen.box {
		t.Errorf("measure right after resolve = %+v, want the look's %+v", b, seen.box)
	}

	for i, c := range []struct {
		name  string
		after func()
	}{
		{"time passing", func() { time.Sleep(lookFresh + 20*time.Millisecond) }},
		{"an observation", func() { mustObserve(t, page) }},
		{"an action", func() { mustAct(t, page, agent.ActHover, "heading", "Settings", "") }},
	} {
		time.Sleep(lookFresh + 20*time.Millisecond)
		before := measure()
		move(map[bool]string{true: "40px", false: "0px"}[i%2 == 0])
		c.after()
		if b := measure(); b.X == before.X {
			t.Errorf("after %s, measure still says x = %v: the element moved", c.name, b.X)
		}
	}
}
