package browser

import (
	"context"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/harness"
	"observatory/backend/planner"
)

// nearMissPage serves testdata/nearmiss.html, a page that opens scrolled, with buttons at
// fractional positions and a link named as the missed target is.
func nearMissPage(tb testing.TB) string {
	tb.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, "testdata/nearmiss.html")
	}))
	tb.Cleanup(srv.Close)
	return srv.URL
}

// staticEnv is an app that is only a page: its gate never holds, so an attempt on it runs
// its plan and fails.
type staticEnv struct{ url string }

func (e staticEnv) StartURL() string              { return e.url }
func (e staticEnv) Origins() []string             { return nil }
func (e staticEnv) Quiesce(context.Context) error { return nil }
func (e staticEnv) Events() []agent.Event         { return nil }
func (e staticEnv) Close() error                  { return nil }
func (e staticEnv) Check(context.Context, agent.Observer) agent.Check {
	return agent.Check{Gate: agent.NewGate([]agent.Condition{{ID: "never", Label: "Never holds", Verdict: agent.Verdict{Evidence: "a static page"}}})}
}
func (e staticEnv) Answers(context.Context, agent.Observer) []agent.Answer { return nil }

// TestStepsRecordTheTargetsBoxAndTheNearMisses runs a plan through the executor on a real
// page: each acted-on element's recorded box is its getBoundingClientRect in the viewport
// (within 1 px), with the viewport's size, and a target that matches nothing records the
// page's nearest elements, best first (by name similarity, the target's role breaking ties), each
// with its own box, and names the best in the step's error.
func TestStepsRecordTheTargetsBoxAndTheNearMisses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{})
	if err != nil {
		t.Fatalf("new page: %v", err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	plan := agent.Plan{
		{ID: "fill", Description: "Fill the title", Kind: agent.ActFill, Target: agent.Target{Label: "Title"}, Value: "Scan"},
		{ID: "click", Description: "Reserve", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Reserve a slot"}},
		{ID: "miss", Description: "Reserve by the old name", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Reserve slot"}},
	}
	x := &agent.Executor{Policy: harness.Policy{}}
	out := x.Run(ctx, page, agent.Job{Env: staticEnv{nearMissPage(t)}, Planner: planner.Scripted(plan), Config: agent.DefaultConfig()}, agent.Hooks{})
	if out.Terminal != agent.Failed || len(out.Steps) != 3 {
		t.Fatalf("the attempt ended %s after %d steps (%s), want failed at step 3", out.Terminal, len(out.Steps), out.Reason)
	}
	rect := func(css string) agent.Box {
		t.Helper()
		raw, err := page.(*Page).page.Evaluate(`(css) => {
			const r = document.querySelector(css).getBoundingClientRect();
			return { x: r.x, y: r.y, width: r.width, height: r.height, viewport_width: innerWidth, viewport_height: innerHeight };
		}`, css)
		if err != nil {
			t.Fatalf("measuring %s in the page: %v", css, err)
		}
		var b agent.Box
		if err := remarshal(raw, &b); err != nil {
			t.Fatal(err)
		}
		return b
	}
	for i, css := range []string{"#title", "#slots"} {
		got := out.Steps[i].TargetBox
		if got == nil {
			t.Fatalf("step %d (%s) recorded no target box", i+1, plan[i].Target)
		}
		want := rect(css)
		if !near(*got, want) {
			t.Errorf("step %d recorded box %+v, the element's client rect is %+v", i+1, *got, want)
		}
	}
	if y, err := page.(*Page).page.Evaluate("() => scrollY"); err != nil || y != 137 {
		t.Errorf("the page is scrolled by %v (%v), want 137 px: the boxes would not test viewport coordinates", y, err)
	}

	miss := out.Steps[2]
	if miss.TargetBox != nil {
		t.Errorf("the missed target recorded a box %+v", *miss.TargetBox)
	}
	want := []struct{ role, name, css string }{
		{"link", "Reserve slot", "#link"},
		{"button", "Reserve a slot", "#slots"},
		{"button", "Book a slot", "#book"},
		{"button", "Help", "#help"},
	}
	if len(miss.Candidates) != len(want) {
		t.Fatalf("the miss recorded candidates %+v, want %d", miss.Candidates, len(want))
	}
	for i, w := range want {
		c := miss.Candidates[i]
		if c.Role != w.role || c.Name != w.name || c.Similarity != agent.Similarity("Reserve slot", w.name) {
			t.Errorf("candidate %d = %s, want %s %q with similarity %.2f", i+1, c, w.role, w.name, agent.Similarity("Reserve slot", w.name))
		}
		if r := rect(w.css); !near(c.Box, r) {
			t.Errorf("candidate %d's box %+v, the element's client rect is %+v", i+1, c.Box, r)
		}
	}
	if !strings.Contains(miss.Error, `nearest: link "Reserve slot" (similarity 1.00), button "Reserve a slot" (similarity 0.86), button "Book a slot"`) {
		t.Errorf("the step's error does not name the candidates: %s", miss.Error)
	}
	if !errors.Is(out.Err, agent.ErrNoTarget) {
		t.Errorf("the attempt's error %v is not ErrNoTarget", out.Err)
	}
}

// TestMeasureAndMissOnTheirOwn checks Measure's errors (an element that went away fails
// within half an action's wait: the action after it waits in full) and that a target located by CSS has
// no candidates to name, while a label target compares names whatever their role.
func TestMeasureAndMissOnTheirOwn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{})
	if err != nil {
		t.Fatalf("new page: %v", err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	if err := page.Goto(ctx, nearMissPage(t)); err != nil {
		t.Fatal(err)
	}
	err = page.Resolve(ctx, agent.Target{CSS: "#nothing"})
	var miss *agent.MissError
	if !errors.As(err, &miss) || len(miss.Candidates) != 0 || err.Error() != agent.ErrNoTarget.Error() {
		t.Errorf("a CSS miss = %v, want ErrNoTarget with no candidates", err)
	}
	err = page.Resolve(ctx, agent.Target{Label: "Titles"})
	if !errors.As(err, &miss) || len(miss.Candidates) != 1 || miss.Candidates[0].Role != "textbox" || miss.Candidates[0].Name != "Title" {
		t.Errorf("a label miss = %v, want the textbox named Title", err)
	}
	start := time.Now()
	if _, err := page.(agent.Measurer).Measure(ctx, agent.Target{Role: "button", Name: "Gone"}); err == nil || time.Since(start) > 5*time.Second {
		t.Errorf("measuring an element that is not there = %v after %v, want an error within half an action's wait", err, time.Since(start))
	}
	short, cancel := context.WithTimeout(ctx, 0)
	defer cancel()
	if _, err := page.(agent.Measurer).Measure(short, agent.Target{Role: "button", Name: "Help"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Measure with an expired context = %v, want the deadline", err)
	}
}

// near reports whether two boxes agree within 1 px on every side and on the viewport.
func near(a, b agent.Box) bool {
	for _, d := range []float64{a.X - b.X, a.Y - b.Y, a.Width - b.Width, a.Height - b.Height,
		a.ViewportWidth - b.ViewportWidth, a.ViewportHeight - b.ViewportHeight} {
		if math.Abs(d) > 1 {
			return false
		}
	}
	return true
}

// TestAMissNamesTheButtonBeforeATablesHeader: on a real page with a table whose column header
// reads "Save" and a button "Save changes", a step that wants button "Save" is told of the
// button first: a control a person acts on leads non-interactive text of a closer name.
func TestAMissNamesTheButtonBeforeATablesHeader(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`<!doctype html><title>Drafts</title><table><thead><tr><th>Name</th><th>Save</th></tr></thead>
<tbody><tr><td>Spectral scan</td><td>never</td></tr></tbody></table><button id="save">Save changes</button>`))
	}))
	t.Cleanup(srv.Close)
	page, err := testBrowser(t).NewPage(ctx, agent.PageOptions{})
	if err != nil {
		t.Fatalf("new page: %v", err)
	}
	t.Cleanup(func() { _, _ = page.Close() })
	if err := page.Goto(ctx, srv.URL); err != nil {
		t.Fatal(err)
	}
	err = page.Resolve(ctx, agent.Target{Role: "button", Name: "Save"})
	var miss *agent.MissError
	if !errors.As(err, &miss) || len(miss.Candidates) < 2 {
		t.Fatalf("the miss = %v, want the button and the header as candidates", err)
	}
	first, second := miss.Candidates[0], miss.Candidates[1]
	if first.Role != "button" || first.Name != "Save changes" || second.Role != "columnheader" || second.Name != "Save" || second.Similarity != 1 {
		t.Errorf("candidates %v, want button \"Save changes\" before columnheader \"Save\" (similarity 1.00)", miss.Candidates)
	}
	if !strings.Contains(err.Error(), `nearest: button "Save changes"`) {
		t.Errorf("the step's error leads with another candidate: %v", err)
	}
}
