package uitest

import (
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// TestMetricsView runs two booking attempts from the window (each ▶ is a run of its own),
// opens the Metrics view and checks what the two rows imply: by task, two runs, one of two
// attempts completed and saved as asked, one wrong target (the wrong room), drawn as bar
// charts whose labels carry the numbers; the Calibration view under them gives the success
// notice's false-done rate against the truth as 1 of 2 and opens the wrong room's trace from
// its cell; at 1280×720 every column of both tables fits and a picked cell's attempts come
// into view; sliced by attempt, one row each. axe-core finds nothing in the light theme or the
// dark.
func TestMetricsView(t *testing.T) {
	page := openPage(t, newServer(t))
	runAttempt(t, page, "Saves normally", "completed")
	runAttempt(t, page, "South lab, wrong room", "failed")

	must(t, "open the metrics", button(page, "Metrics").Click())
	view := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Metrics"})
	booking := view.GetByRole("row", playwright.LocatorGetByRoleOptions{Name: "booking"})
	cells := booking.GetByRole("cell")
	// runs, attempts, completed; the three rates; truth unconfirmed, burden, then the counts
	for i, want := range []string{"2", "2", "1", "50%", "50%", "0%", "0", "0.00", "0", "0", "0", "0", "0"} {
		expectText(t, cells.Nth(i), want)
	}
	chart := view.GetByRole("img", playwright.LocatorGetByRoleOptions{Name: "Wrong-target rate: booking 50%"})
	must(t, "see the wrong-target chart", expect.Locator(chart).ToBeVisible())
	checkA11y(t, page, "the metrics view")
	snap(t, page, "metrics")

	checkCalibration(t, page, view)
	checkMetricsFitAt1280(t, page, view)

	_, err := view.GetByLabel("Slice by").SelectOption(playwright.SelectOptionValues{Values: &[]string{"attempt"}})
	must(t, "slice by attempt", err)
	wrong := view.GetByRole("row", playwright.LocatorGetByRoleOptions{Name: "booking/wrong-room"})
	expectText(t, wrong.GetByRole("cell").Nth(4), "100%")
	expectText(t, view.GetByRole("row", playwright.LocatorGetByRoleOptions{Name: "booking/saves-normally"}).GetByRole("cell").Nth(3), "100%")

	must(t, "explain the burden", view.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "What is confirmation burden?"}).Click())
	expectContains(t, view.GetByRole("note"), "approvals asked of the user per completed attempt")

	_, err = page.GetByRole("combobox", playwright.PageGetByRoleOptions{Name: "Theme"}).SelectOption(playwright.SelectOptionValues{Values: &[]string{"dark"}})
	must(t, "choose dark", err)
	must(t, "see the dark theme", expect.Locator(page.Locator("html")).ToHaveAttribute("data-theme", "dark"))
	checkA11y(t, page, "the metrics view in the dark theme")
}

// checkCalibration reads the Calibration view of the metrics view: against the truth, the
// success notice is done and right on saves-normally and done and wrong on wrong-room (1 of
// 2, with its interval); the wrong cell lists wrong-room, whose trace one click opens.
func checkCalibration(t *testing.T, page playwright.Page, view playwright.Locator) {
	t.Helper()
	cal := view.GetByRole("region", playwright.LocatorGetByRoleOptions{Name: "Calibration"})
	table := cal.GetByRole("table", playwright.LocatorGetByRoleOptions{Name: "Task: booking"})
	notice := table.GetByRole("row", playwright.LocatorGetByRoleOptions{Name: "success notice ground truth"})
	cells := notice.GetByRole("cell")
	for i, want := range []string{"ground truth", "1", "1", "0", "0", "0", "1/2 [9%, 91%]"} {
		expectText(t, cells.Nth(i), want)
	}
	checkA11y(t, page, "the calibration view")
	snap(t, page, "calibration")
	must(t, "pick the notice's wrong done calls", notice.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "success notice against the truth, done, wrong: 1 attempts"}).Click())
	listed := cal.GetByRole("region", playwright.LocatorGetByRoleOptions{Name: "Attempts: success notice against the truth, done, wrong"})
	must(t, "open the wrong room's trace", listed.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "wrong-room"}).Click())
	must(t, "see the wrong room selected", expect.Locator(row(page, "South lab, wrong room")).ToHaveAttribute("aria-current", "true"))
	must(t, "see its trace", expect.Locator(page.GetByRole("tab", playwright.PageGetByRoleOptions{Name: "Gate"})).ToBeVisible())
	must(t, "open the metrics again", button(page, "Metrics").Click())
}
