package uitest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/mxschmitt/playwright-go"

	"observatory/app"
)

// TestCompareTwoRuns runs "Saves normally" as it is, then again with a budget of two actions
// (saved in the settings, as Settings would), picks both runs in the history and compares
// them: the one attempt differs in its terminal state, ground truth, gate and step count; it
// is a regression of the candidate, in the failure colour, the budget is listed as the
// setting that differed, and a swap makes it an improvement.
// The comparison's link survives a reload, and axe-core finds nothing in it.
func TestCompareTwoRuns(t *testing.T) {
	srv, _, dir := newServerWithStore(t)
	page := openPage(t, srv)
	runAttempt(t, page, "Saves normally", "completed")
	// The run goes on after its attempt's verdict, finishing the video: the settings are
	// changed once it has ended, as a user changes them with the run over.
	must(t, "see the run end", expect.Locator(page.GetByRole("button", playwright.PageGetByRoleOptions{Name: "Stop", Exact: playwright.Bool(true)})).ToBeDisabled())

	budget := 2
	s := app.DefaultSettings()
	s.Config.Budget = &budget
	b, err := json.Marshal(s)
	must(t, "write the settings", err)
	must(t, "save the settings", os.WriteFile(filepath.Join(dir, "settings.json"), b, 0o644))
	_, err = page.Reload()
	must(t, "reload with the settings", err)
	runAttempt(t, page, "Saves normally", "exhausted")

	history := page.GetByRole("navigation", playwright.PageGetByRoleOptions{Name: "Run history"})
	boxes := history.GetByRole("checkbox", playwright.LocatorGetByRoleOptions{Name: regexp.MustCompile(`^Compare run `)})
	must(t, "see both runs", expect.Locator(boxes).ToHaveCount(2))
	must(t, "pick the first run", boxes.Nth(1).Check()) // the list is newest first
	must(t, "pick the second run", boxes.Nth(0).Check())
	must(t, "compare them", history.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Compare", Exact: playwright.Bool(true)}).Click())

	view := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Compare runs"})
	check := func(t *testing.T) {
		t.Helper()
		expectText(t, view.GetByRole("status"), "1 of 1 attempt differ")
		expectText(t, view.GetByTestId("a-saves-normally-terminal"), "completed (differs)")
		expectText(t, view.GetByTestId("b-saves-normally-terminal"), "exhausted (differs)")
		expectText(t, view.GetByTestId("a-saves-normally-gate"), "done (differs)")
		expectText(t, view.GetByTestId("b-saves-normally-gate"), "not done (differs)")
		must(t, "see the differing row marked", expect.Locator(view.GetByTestId("compare-saves-normally")).ToHaveClass("row-differs"))
		// The candidate (B) no longer completes: a regression, in words and its own colour.
		tag := view.GetByTestId("compare-saves-normally").GetByTestId("direction")
		expectText(t, tag, "regression")
		colour, err := tag.Evaluate(`e => [getComputedStyle(e).color, getComputedStyle(document.documentElement).getPropertyValue("--wrong").trim()]`, nil)
		must(t, "read the regression's colour", err)
		if c := colour.([]any); c[0] == "" || !sameColour(c[0].(string), c[1].(string)) {
			t.Errorf("the regression reads in %v, want the failure colour %v", c[0], c[1])
		}
		// What differed in how they ran: B's budget of two actions.
		setting := view.GetByRole("table", playwright.LocatorGetByRoleOptions{Name: "Settings that differ"}).GetByRole("row").Filter(playwright.LocatorFilterOptions{HasText: "config.budget"})
		expectContains(t, setting, "Saves normally")
		must(t, "see B's budget", expect.Locator(setting.GetByRole("cell").Last()).ToHaveText("2"))
	}
	check(t)
	overflow, err := page.Evaluate(`() => document.documentElement.scrollWidth - document.documentElement.clientWidth`)
	must(t, "measure the page", err)
	if overflow.(int) > 0 {
		t.Errorf("the page scrolls sideways by %v px with the comparison open; its table should scroll inside its pane", overflow)
	}
	// At 1280×720 run B's line is in view beside A's, not pushed off the pane's right.
	resize(t, page, 1280, 720)
	cut, err := view.Evaluate(`v => { const pane = v.querySelector(".scroll").getBoundingClientRect();
		return [...v.querySelectorAll("[data-testid^='b-saves-normally-']")].filter((c) => c.getBoundingClientRect().right > pane.right + 1).map((c) => c.dataset.testid); }`, nil)
	must(t, "measure run B's cells", err)
	if len(cut.([]any)) > 0 {
		t.Errorf("at 1280×720 run B's cells %v are past the comparison's right edge", cut)
	}
	must(t, "see the link", expect.Page(page).ToHaveURL(regexp.MustCompile(`#/compare/[^/]+/[^/]+$`)))
	checkA11y(t, page, "the comparison")
	snap(t, page, "compare")
	resize(t, page, 1920, 1080)
	snap(t, page, "compare-1080")

	t.Run("swapping makes the regression an improvement", func(t *testing.T) {
		swap := view.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Swap baseline and candidate"})
		must(t, "swap", swap.Click())
		expectText(t, view.GetByTestId("compare-saves-normally").GetByTestId("direction"), "improvement")
		expectText(t, view.GetByTestId("a-saves-normally-terminal"), "exhausted (differs)")
		must(t, "swap back", swap.Click())
		expectText(t, view.GetByTestId("compare-saves-normally").GetByTestId("direction"), "regression")
	})

	t.Run("the comparison's link survives a reload", func(t *testing.T) {
		_, err := page.Reload()
		must(t, "reload", err)
		check(t)
	})

	t.Run("closing goes back to the attempts", func(t *testing.T) {
		must(t, "close", view.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Close comparison"}).Click())
		must(t, "see the attempts again", expect.Locator(row(page, "Saves normally")).ToBeVisible())
		must(t, "see the link name no comparison", expect.Page(page).Not().ToHaveURL(regexp.MustCompile(`compare`)))
	})
}

// sameColour reports whether the computed colour css (rgb(r, g, b)) is the hex colour hex (#rrggbb).
func sameColour(css, hex string) bool {
	var r, g, b int
	if _, err := fmt.Sscanf(hex, "#%02x%02x%02x", &r, &g, &b); err != nil {
		return false
	}
	return css == fmt.Sprintf("rgb(%d, %d, %d)", r, g, b)
}
