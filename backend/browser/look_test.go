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

// TestAnObservationAfterAnApproachMeasuresItsTarget: once the pointer was moved onto a target
// (a commit's approach), the observations take its look in the same call, after their sample,
// so the Measure that follows needs no call of its own and shows where the element is as the
// sample read the page, even when the page moved it meanwhile; the next action ends that.
func TestAnObservationAfterAnApproachMeasuresItsTarget(t *testing.T) {
	t.Parallel()
	page := openTestPage(t, "quiet.html", agent.PageOptions{}).(*Page)
	ctx := context.Background()
	save := agent.Target{Role: "button", Name: "Save"}
	mustAct(t, page, agent.ActHover, "button", "Save", "")
	if _, err := page.page.Evaluate(`document.querySelector("#profile button").style.marginLeft = "40px"`); err != nil {
		t.Fatal(err)
	}
	mustObserve(t, page)
	seen, fresh := page.recentLook(save)
	if !fresh {
		t.Fatalf("the observation after the approach kept no look at its target")
	}
	page.forgetLook()
	b, err := page.Measure(ctx, save)
	if err != nil {
		t.Fatalf("measure: %v", err)
	}
	if seen.box != b || seen.unreachable {
		t.Errorf("the observation's look = %+v, a measurement of the same page = %+v", seen, b)
	}
	mustAct(t, page, agent.ActHover, "heading", "Settings", "")
	mustObserve(t, page)
	if _, fresh := page.recentLook(save); fresh {
		t.Errorf("an observation after the next action still took the approached target's look")
	}
}
