package uitest

import (
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"
)

// cutHeadersJS lists the column headers of the view's tables that a person at this size does
// not see whole: past the view's right edge, or past their table's scrolling pane.
const cutHeadersJS = `v => {
  const view = v.getBoundingClientRect();
  const cut = [];
  for (const pane of v.querySelectorAll(".metrics-table")) {
    const edge = Math.min(view.right, pane.getBoundingClientRect().right) + 1;
    for (const th of pane.querySelectorAll("thead th")) {
      if (th.getBoundingClientRect().right > edge) cut.push(th.textContent.trim());
    }
    if (pane.scrollWidth > pane.clientWidth + 1) cut.push("(" + (pane.querySelector("caption")?.textContent ?? "a table") + " scrolls sideways)");
  }
  return cut;
}`

// checkMetricsFitAt1280 resizes the window to 1280×720 and checks, as a person sees it once
// the view has settled, that no column of the Metrics or Calibration tables is cut (each
// header's right edge within the view and its table's pane, no table scrolling sideways), then
// picks a cell of the overall calibration, under the fold, and sees its attempts come into view.
func checkMetricsFitAt1280(t *testing.T, page playwright.Page, view playwright.Locator) {
	t.Helper()
	resize(t, page, 1280, 720)
	overall := view.GetByRole("table", playwright.LocatorGetByRoleOptions{Name: "Overall: every attempt of booking (1 by task)"})
	must(t, "see the overall calibration", expect.Locator(overall).ToBeAttached())
	// The app reads a resize a moment late: measure until the columns fit, for a bounded time.
	var cut []any
	for deadline := time.Now().Add(uiTimeout * time.Millisecond); ; time.Sleep(100 * time.Millisecond) {
		got, err := view.Evaluate(cutHeadersJS, nil)
		must(t, "measure the headers", err)
		if cut = got.([]any); len(cut) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(cut) > 0 {
		t.Errorf("at 1280×720 these columns are cut: %v", cut)
	}
	snap(t, page, "metrics-1280")
	pick := overall.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "success notice against the truth, done, right: 1 attempts"})
	must(t, "pick the overall notice's right done calls", pick.Click())
	listed := view.GetByRole("region", playwright.LocatorGetByRoleOptions{Name: "Attempts: success notice against the truth, done, right"})
	must(t, "see the picked attempts in view", expect.Locator(listed.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "saves-normally"})).ToBeInViewport())
	must(t, "put the picked cell down", pick.Click())
	resize(t, page, 1400, 1000)
}
