package uitest

import (
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// TestAttemptsSplitterSaysTheHeightDrawn opens a run of one attempt, whose table needs less
// height than the one chosen (330 px by default): the splitter under it says, and drags from,
// the height the table is drawn at, at 1400×1000, folded at 1280×720, and after the arrow keys.
func TestAttemptsSplitterSaysTheHeightDrawn(t *testing.T) {
	srv, st, dir := newServerWithStore(t)
	commandLine(t, st, dir, "run", "--lab", "booking", "--attempt", "saves-normally")
	page := openPage(t, srv)
	must(t, "open the attempt", row(page, "Saves normally").Click())
	must(t, "see its trace", expect.Locator(page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace"})).ToBeVisible())
	sep := page.GetByRole("separator", playwright.PageGetByRoleOptions{Name: "Resize the attempts table"})
	drawnAsSaid := func(when string) {
		t.Helper()
		h, err := sep.ElementHandle()
		must(t, "find the splitter", err)
		_, err = page.WaitForFunction(`(sep) => {
			const drawn = document.querySelector(".attempts-panel").offsetHeight;
			return drawn > 0 && sep.getAttribute("aria-valuenow") === String(drawn);
		}`, h, playwright.PageWaitForFunctionOptions{Timeout: playwright.Float(10_000)})
		if err != nil {
			got, _ := page.Evaluate(`() => [document.querySelector(".attempts-panel").offsetHeight, document.querySelector('[aria-label="Resize the attempts table"]').getAttribute("aria-valuenow")]`)
			t.Errorf("%s: the table's height drawn and the splitter's aria-valuenow are %v: %v", when, got, err)
		}
	}
	drawnAsSaid("one attempt at 1400×1000")
	if got, err := page.Locator(".attempts-panel").Evaluate("e => e.offsetHeight", nil); err != nil || got == nil || got.(int) >= 330 {
		t.Errorf("the one attempt's table is drawn %v px high (%v), want less than the 330 px chosen", got, err)
	}
	must(t, "focus the splitter", sep.Focus())
	must(t, "press ArrowDown", sep.Press("ArrowDown"))
	drawnAsSaid("after ArrowDown")
	resize(t, page, 1280, 720)
	must(t, "the table is folded", expect.Locator(button(page, "All attempts (A)")).ToHaveAttribute("aria-expanded", "false"))
	drawnAsSaid("folded at 1280×720")
}
