package uitest

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
	"observatory/backend/labs/booking"
)

// TestTargetBoxesAndNearMisses runs "Saves normally" and checks that its first step's
// screenshot (before the action) carries a box exactly where the recorded box falls once
// scaled onto the displayed image, at the fitted size, at 1280×720 and at 200 %;
// then runs "Renamed button, exact names" and checks that its miss lists the candidates the
// run recorded, best first and "Book a slot" among them, with their dashed boxes in place, and that the Boxes
// toggle hides them. axe-core finds nothing in either view.
func TestTargetBoxesAndNearMisses(t *testing.T) {
	srv, st, _ := newServerWithStore(t)
	page := openPage(t, srv)
	trace := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace"})

	runAttempt(t, page, "Saves normally", "completed")
	rec := stored(t, st, "saves-normally").Steps[0].TargetBox
	if rec == nil {
		t.Fatal("the stored step 1 of saves-normally has no target box")
	}
	press(t, page, "Home", headings[0])
	must(t, "show before", button(page, "Before").Click())
	img := trace.GetByRole("img", playwright.LocatorGetByRoleOptions{Name: "Before screenshot"})
	box := trace.GetByTestId("target-box")
	must(t, "see the target's box", expect.Locator(box).ToBeVisible())
	expectOver(t, "fitted", img, box, *rec)
	checkA11y(t, page, "the trace with the target's box")
	resize(t, page, 1280, 720)
	expectOver(t, "after a resize", img, box, *rec)
	must(t, "zoom to 200%", button(page, "200%").Click())
	expectOver(t, "at 200%", img, box, *rec)
	must(t, "back to fit", button(page, "Fit").Click())
	snap(t, page, "trace-target-box")

	runAttempt(t, page, "Renamed button, exact names", "failed")
	miss := stored(t, st, "renamed-button-exact").Steps[0]
	renamed := slices.IndexFunc(miss.Candidates, func(c agent.Candidate) bool { return c.Name == booking.RenamedLabel })
	if renamed < 0 || !slices.IsSortedFunc(miss.Candidates, func(a, b agent.Candidate) int { return cmp.Compare(b.Similarity, a.Similarity) }) {
		t.Fatalf("the stored miss has candidates %+v, want them best first with %q among them", miss.Candidates, booking.RenamedLabel)
	}
	items := trace.GetByRole("list", playwright.LocatorGetByRoleOptions{Name: "Nearest elements"}).GetByRole("listitem")
	must(t, "see every candidate listed", expect.Locator(items).ToHaveCount(len(miss.Candidates)))
	for i, c := range miss.Candidates {
		expectText(t, items.Nth(i), fmt.Sprintf("%s %q (similarity %.2f)", c.Role, c.Name, c.Similarity))
	}
	expectText(t, items.Nth(renamed), fmt.Sprintf(`button "%s" (similarity %.2f)`, booking.RenamedLabel, miss.Candidates[renamed].Similarity))
	must(t, "show the page after alone", button(page, "After").Click())
	shown := trace.GetByRole("img", playwright.LocatorGetByRoleOptions{Name: "After screenshot"})
	boxes := trace.GetByTestId("candidate-box")
	must(t, "see a box per candidate", expect.Locator(boxes).ToHaveCount(len(miss.Candidates)))
	expectContains(t, boxes.Nth(renamed), booking.RenamedLabel)
	expectOver(t, "the renamed button's box", shown, boxes.Nth(renamed), miss.Candidates[renamed].Box)
	overflow, err := page.Evaluate(`() => { const d = document.documentElement; return [d.scrollWidth - d.clientWidth, d.scrollHeight - d.clientHeight]; }`)
	must(t, "measure the page", err)
	if o := overflow.([]any); o[0].(int) > 0 || o[1].(int) > 0 {
		t.Errorf("the miss's trace scrolls the page by %v px (x, y) at 1280×720", o)
	}
	checkA11y(t, page, "the trace of a miss with its candidates")
	snap(t, page, "trace-near-miss")

	toggle := button(page, "Boxes")
	must(t, "hide the boxes", toggle.Click())
	must(t, "see the toggle off", expect.Locator(toggle).ToHaveAttribute("aria-pressed", "false"))
	must(t, "see no boxes", expect.Locator(boxes).ToHaveCount(0))
	must(t, "show the boxes", toggle.Click())
	must(t, "see the boxes again", expect.Locator(boxes).ToHaveCount(len(miss.Candidates)))
}

// expectOver checks that drawn sits over img where the recorded box falls once its viewport
// is scaled onto the picture as displayed, within a pixel on every side. The picture is the
// image's natural proportions contained at the element's top left (object-fit: contain,
// fitted), which is the element itself when zoomed. The layout may still be settling (the
// picture loading, a resize or zoom being applied), so it measures until the two agree or the
// page reaction's timeout passes, and reports the last measurement.
func expectOver(t *testing.T, where string, img, drawn playwright.Locator, rec agent.Box) {
	t.Helper()
	must(t, where+": the box is drawn", expect.Locator(drawn).ToBeVisible())
	must(t, where+": the screenshot is shown", expect.Locator(img).ToBeVisible())
	deadline := time.Now().Add(uiTimeout * time.Millisecond)
	for {
		miss := overBy(img, drawn, rec)
		if miss == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%s: %s", where, miss)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// overBy measures one moment of expectOver: "" when drawn is over the scaled box, otherwise
// what was measured and why it does not match.
func overBy(img, drawn playwright.Locator, rec agent.Box) string {
	el, err := img.BoundingBox()
	if err != nil || el == nil {
		return fmt.Sprintf("the screenshot has no box on the page (%v)", err)
	}
	natural, err := img.Evaluate("i => i.complete && i.naturalHeight > 0 ? i.naturalWidth / i.naturalHeight : 0", nil)
	ratio := toFloat(natural)
	if err != nil || !(ratio > 0) {
		return fmt.Sprintf("the screenshot has not loaded (%v)", err)
	}
	w := math.Min(el.Width, el.Height*ratio)
	pic := playwright.Rect{X: el.X, Y: el.Y, Width: w, Height: w / ratio}
	got, err := drawn.BoundingBox()
	if err != nil || got == nil {
		return fmt.Sprintf("the drawn box has no box on the page (%v)", err)
	}
	sx, sy := pic.Width/rec.ViewportWidth, pic.Height/rec.ViewportHeight
	want := playwright.Rect{X: pic.X + rec.X*sx, Y: pic.Y + rec.Y*sy, Width: rec.Width * sx, Height: rec.Height * sy}
	if math.Abs(got.X-want.X) > 1 || math.Abs(got.Y-want.Y) > 1 || math.Abs(got.Width-want.Width) > 1 || math.Abs(got.Height-want.Height) > 1 {
		return fmt.Sprintf("the box is drawn at %+v over the picture at %+v; the recorded %+v scaled is %+v", *got, pic, rec, want)
	}
	if math.Abs(sx-sy) > 0.01 {
		return fmt.Sprintf("the viewport %v×%v is scaled %.3f across and %.3f down: the screenshot is not of that viewport", rec.ViewportWidth, rec.ViewportHeight, sx, sy)
	}
	return ""
}

// toFloat is a number Playwright returned (an int when it is whole).
func toFloat(v any) float64 {
	switch n := v.(type) {
	case int:
		return float64(n)
	case float64:
		return n
	}
	return math.NaN()
}
