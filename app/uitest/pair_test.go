package uitest

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// TestAComparedPairOpensBothTraces: "Saves normally" runs from the command line as it is, then
// with a budget of two actions; their comparison, opened from its link at 1280×720, opens the
// pair as both traces side by side: the baseline's on the left, the candidate's on the right,
// each half the window wide with its step heading, its current step in its list in view and
// its step's picture at a readable size, with no page scroll; back returns to the comparison.
func TestAComparedPairOpensBothTraces(t *testing.T) {
	srv, st, dir := newServerWithStore(t)
	a := commandLine(t, st, dir, "run", "--lab", "booking", "--attempt", "saves-normally")
	b := commandLine(t, st, dir, "run", "--lab", "booking", "--attempt", "saves-normally", "--budget", "2")
	page := openPage(t, srv)
	resize(t, page, 1280, 720)
	_, err := page.Goto(srv.URL + "/#/compare/" + a + "/" + b)
	must(t, "open the comparison's link", err)
	cmp := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Compare runs"})
	must(t, "see the comparison", expect.Locator(cmp.GetByTestId("b-saves-normally-terminal")).ToHaveText("exhausted (differs)"))
	must(t, "open the pair", cmp.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Open both traces of Saves normally"}).Click())

	pair := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Saves normally: both runs"})
	must(t, "see the pair", expect.Locator(pair).ToBeVisible())
	must(t, "see the comparison give way", expect.Locator(cmp).ToHaveCount(0))
	sides := map[string]struct{ label, run string }{"left": {"A (baseline)", a}, "right": {"B (candidate)", b}}
	boxes := map[string]*playwright.Rect{}
	for _, at := range []string{"left", "right"} {
		s := sides[at]
		trace := pair.GetByRole("region", playwright.LocatorGetByRoleOptions{Name: "Trace " + s.label, Exact: playwright.Bool(true)})
		must(t, "see "+s.label+"'s trace, named with its run", expect.Locator(trace.GetByRole("heading", playwright.LocatorGetByRoleOptions{
			Name: fmt.Sprintf("Trace: Saves normally · %s, run %s", s.label, s.run)})).ToBeVisible())
		must(t, "see "+s.label+"'s step heading", expect.Locator(trace.GetByTestId("step-heading")).ToHaveText(regexp.MustCompile(`^Step \d+ of \d+: \S`)))
		must(t, "see "+s.label+"'s current step in its list", expect.Locator(trace.Locator(`[aria-current="step"]`)).ToBeInViewport())
		shot := trace.GetByTestId("shot-area").Locator("img")
		must(t, "see "+s.label+"'s picture", expect.Locator(shot).ToBeVisible())
		must(t, "see "+s.label+"'s picture in view", expect.Locator(shot).ToBeInViewport(playwright.LocatorAssertionsToBeInViewportOptions{Ratio: playwright.Float(1)}))
		img, err := shot.BoundingBox()
		must(t, "measure "+s.label+"'s picture", err)
		if img.Width < 400 || img.Height < 250 {
			t.Errorf("%s's picture is %.0f×%.0f px at 1280×720; want at least 400×250", s.label, img.Width, img.Height)
		}
		box, err := trace.BoundingBox()
		must(t, "measure "+s.label+"'s trace", err)
		if box.Width < 560 {
			t.Errorf("%s's trace is %.0f px wide at 1280; want about half the window", s.label, box.Width)
		}
		boxes[at] = box
	}
	if boxes["left"].X+boxes["left"].Width > boxes["right"].X || boxes["left"].Y != boxes["right"].Y {
		t.Errorf("the traces are at %+v and %+v; want the baseline beside the candidate, on its left", boxes["left"], boxes["right"])
	}
	noScroll(t, page)
	snap(t, page, "compare-pair")

	must(t, "go back", pair.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Back to the comparison"}).Click())
	must(t, "see the comparison again", expect.Locator(cmp.GetByTestId("b-saves-normally-terminal")).ToHaveText("exhausted (differs)"))
	must(t, "see the pair gone", expect.Locator(pair).ToHaveCount(0))
}
