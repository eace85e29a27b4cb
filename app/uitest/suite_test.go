package uitest

import (
	"fmt"
	"math"
	"regexp"
	"testing"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/stats"
)

// pct is a rate as the window words it, a whole percentage.
func pct(x float64) string { return fmt.Sprintf("%d%%", int(math.Round(100*x))) }

// TestSuiteOfTrials starts two trials of every booking attempt from the Trials… menu, as a
// suite run: the window shows the suite as it fills in, then a grid of the eight attempts by
// two trials, each cell how that trial ended (both of "Saves normally" completed, both of
// "South lab, wrong room" failed), each row's rate and the suite's with Wilson intervals
// computed here from the counts, the history marks both runs' suite, a cell opens its trial's
// trace, the suite's link survives a reload, and axe-core finds nothing in it.
func TestSuiteOfTrials(t *testing.T) {
	srv, _, _ := newServerWithStore(t)
	page := openPage(t, srv)
	must(t, "see the booking task chosen", expect.Locator(page.Locator("header").GetByLabel("Task", playwright.LocatorGetByLabelOptions{Exact: playwright.Bool(true)})).ToHaveValue("lab:booking"))
	must(t, "open the trials menu", page.GetByRole("button", playwright.PageGetByRoleOptions{Name: "Trials…"}).Click())
	menu := page.GetByRole("group", playwright.PageGetByRoleOptions{Name: "Run trials"})
	must(t, "ask for two trials", menu.GetByRole("spinbutton", playwright.LocatorGetByRoleOptions{Name: "Trials of each attempt"}).Fill("2"))
	must(t, "name the suite", menu.GetByRole("textbox", playwright.LocatorGetByRoleOptions{Name: "Suite name"}).Fill("smoke"))
	must(t, "start", menu.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Start 2 trials of 1 task"}).Click())

	view := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Suite smoke"})
	must(t, "see the suite", expect.Locator(view).ToBeVisible())
	// The window follows the suite's runs as they go, so Stop can stop the suite.
	must(t, "see Stop enabled while the suite goes", expect.Locator(button(page, "Stop")).ToBeEnabled())
	must(t, "see the link", expect.Page(page).ToHaveURL(regexp.MustCompile(`#/suite/smoke%40[^/]+$`)))
	status := view.GetByRole("status")
	// Every booking attempt twice: 3 of the 8 complete each time (the README's table).
	overall := stats.Proportion{K: 6, N: 16}.Wilson()
	want := fmt.Sprintf("6 of 16 trials completed · 38%% [%s, %s]", pct(overall.Lo), pct(overall.Hi))
	must(t, "see every trial end", expect.Locator(status).ToHaveText(want, playwright.LocatorAssertionsToHaveTextOptions{Timeout: playwright.Float(240_000)}))

	check := func(t *testing.T) {
		t.Helper()
		expectText(t, status, want)
		for _, r := range []struct {
			key, title, terminal string
			done                 int
		}{
			{"booking/saves-normally", "Saves normally", "completed", 2},
			{"booking/wrong-room", "South lab, wrong room", "failed", 0},
			{"booking/save-refused", "Save refused by the server", "rejected", 0},
		} {
			row := view.GetByTestId("suite-" + r.key)
			for k := 1; k <= 2; k++ {
				cellButton := row.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: regexp.MustCompile(fmt.Sprintf(`^%s, trial %d: %s`, regexp.QuoteMeta(r.title), k, r.terminal))})
				must(t, fmt.Sprintf("see %s trial %d %s", r.title, k, r.terminal), expect.Locator(cellButton).ToBeVisible())
			}
			iv := stats.Proportion{K: r.done, N: 2}.Wilson()
			expectContains(t, row, fmt.Sprintf("%d/2 · %s", r.done, pct(float64(r.done)/2)))
			expectContains(t, row, fmt.Sprintf("[%s, %s]", pct(iv.Lo), pct(iv.Hi)))
		}
		expectContains(t, view.GetByTestId("suite-overall"), "6/16 · 38%")
		expectText(t, view.GetByTestId("suite-flaky"), "0")
	}
	check(t)
	history := page.GetByRole("navigation", playwright.PageGetByRoleOptions{Name: "Run history"})
	must(t, "see the run's suite in the history", expect.Locator(history.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "suite smoke"})).ToHaveCount(1))
	overflow, err := page.Evaluate(`() => document.documentElement.scrollWidth - document.documentElement.clientWidth`)
	must(t, "measure the page", err)
	if overflow.(int) > 0 {
		t.Errorf("the page scrolls sideways by %v px with the suite open; its grid should scroll inside its pane", overflow)
	}
	checkA11y(t, page, "the suite")
	snap(t, page, "suite")

	t.Run("the suite's link survives a reload", func(t *testing.T) {
		_, err := page.Reload()
		must(t, "reload", err)
		check(t)
	})

	t.Run("a cell opens its trial's trace", func(t *testing.T) {
		must(t, "open a trial", view.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: regexp.MustCompile(`^South lab, wrong room, trial 2: failed`)}).Click())
		must(t, "see the trace's link", expect.Page(page).ToHaveURL(regexp.MustCompile(`#/run/[^/]+/attempt/wrong-room\.t2`)))
		selected := page.GetByRole("table", playwright.PageGetByRoleOptions{Name: "Attempts"}).Locator(`tr[aria-current="true"]`)
		must(t, "see the trial's row selected", expect.Locator(selected).ToHaveAttribute("aria-label", "South lab, wrong room · trial 2"))
	})

	t.Run("the history opens the suite again", func(t *testing.T) {
		must(t, "open the suite", history.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "suite smoke"}).First().Click())
		check(t)
	})

	t.Run("two suite runs compare task by task", func(t *testing.T) {
		first := page.URL()
		must(t, "open the trials menu", page.GetByRole("button", playwright.PageGetByRoleOptions{Name: "Trials…"}).Click())
		must(t, "ask for two trials", menu.GetByRole("spinbutton", playwright.LocatorGetByRoleOptions{Name: "Trials of each attempt"}).Fill("2"))
		must(t, "name the suite", menu.GetByRole("textbox", playwright.LocatorGetByRoleOptions{Name: "Suite name"}).Fill("smoke"))
		must(t, "start again", menu.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Start 2 trials of 1 task"}).Click())
		must(t, "see the second suite", expect.Page(page).Not().ToHaveURL(first))
		must(t, "see every trial end", expect.Locator(status).ToHaveText(want, playwright.LocatorAssertionsToHaveTextOptions{Timeout: playwright.Float(240_000)}))
		_, err := view.GetByRole("combobox", playwright.LocatorGetByRoleOptions{Name: "Compare with"}).SelectOption(playwright.SelectOptionValues{Indexes: &[]int{1}})
		must(t, "compare with the first", err)
		cmp := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Compare suite runs"})
		must(t, "see the comparison", expect.Locator(cmp).ToBeVisible())
		expectText(t, cmp.GetByRole("status"), "0 of 8 attempts differ significantly · overall: no evidence of a difference (p = 1)")
		expectContains(t, cmp.GetByTestId("rates-booking/saves-normally"), "2/2")
		expectContains(t, cmp.GetByTestId("rates-booking/saves-normally"), "no evidence of a difference: 2 paired trials cannot show one; 6 are needed")
		checkA11y(t, page, "the suite comparison")
		snap(t, page, "suite-compare")
	})
}
