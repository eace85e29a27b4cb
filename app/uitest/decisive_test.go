package uitest

import (
	"regexp"
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// TestEachFailureOpensOnItsDecisiveStep runs the booking lab's refused save and its missing
// button, and the canvas lab's blind click, and opens each as a person would at 1280×720: the
// refused save from the history after a reload opens on the step that sent the save, its row
// in the step list marked in the failure's colour with "1 request failed" and its Network tab
// counting the failed request, chosen when opened; the verify after it is marked "check
// failed"; ←/→ step from there though a tab was clicked; the missing button opens on the
// step that did not find it; the blind click opens on the click that changed nothing.
func TestEachFailureOpensOnItsDecisiveStep(t *testing.T) {
	srv, st, _ := newServerWithStore(t)
	page := openPage(t, srv)
	resize(t, page, 1280, 720)
	runAttempt(t, page, "Save refused by the server", "rejected")
	runs, err := st.List()
	must(t, "list the runs", err)
	refused := runs[0].ID
	runAttempt(t, page, "Renamed button, exact names", "failed")
	heading := page.GetByTestId("step-heading")
	steps := page.GetByRole("navigation", playwright.PageGetByRoleOptions{Name: "Steps"})
	current := steps.Locator(`[aria-current="step"]`)

	t.Run("a missing element opens on the step that did not find it", func(t *testing.T) {
		must(t, "select the attempt", row(page, "Renamed button, exact names").Click())
		expectText(t, heading, "Step 1 of 1: Open reservation dialog")
		must(t, "see it marked failed", expect.Locator(current.GetByRole("img")).ToHaveAttribute("aria-label", "error"))
	})

	t.Run("a refused save opens from the history on the step that sent it, its failed request marked", func(t *testing.T) {
		_, err := page.Reload()
		must(t, "reload", err)
		history := page.GetByRole("navigation", playwright.PageGetByRoleOptions{Name: "Run history"})
		must(t, "open the refused save's run", history.GetByTestId("run-"+refused).Click())
		must(t, "select the attempt", row(page, "Save refused by the server").Click())
		expectText(t, heading, headings[3])
		mark := current.GetByRole("img")
		must(t, "see the step marked", expect.Locator(mark).ToHaveAttribute("aria-label", "1 request failed"))
		note := current.GetByTestId("failed-requests")
		must(t, "see the failed request named", expect.Locator(note).ToHaveText(regexp.MustCompile(`^1 request failed · $`)))
		must(t, "see the note in view", expect.Locator(note).ToBeInViewport())
		colours, err := current.Evaluate(`b => [".status", ".desc", "[data-testid=failed-requests]"].map((s) => getComputedStyle(b.querySelector(s)).color)
			.concat(getComputedStyle(b.closest("ol").querySelector("li:first-child .status")).color)`, nil)
		must(t, "read the colours", err)
		c := colours.([]any)
		if c[0] != c[1] || c[0] != c[2] || c[0] == c[3] {
			t.Errorf("the refused step's mark, description and note are %v, %v, %v; want one colour, not the ✓ step's %v", c[0], c[1], c[2], c[3])
		}
		// The verify after it is where the gate was judged, and did not hold.
		verify := steps.GetByRole("button").Nth(4)
		must(t, "see the verify marked", expect.Locator(verify.GetByRole("img")).ToHaveAttribute("aria-label", "check failed"))

		trace := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace"})
		network := trace.GetByRole("tab", playwright.LocatorGetByRoleOptions{Name: regexp.MustCompile(`^Network \(\d+, 1 failed\)$`)})
		must(t, "open the Network tab", network.Click())
		save := trace.GetByRole("listbox", playwright.LocatorGetByRoleOptions{Name: "Requests"}).GetByRole("option").
			Filter(playwright.LocatorFilterOptions{HasText: "/api/reservations"})
		expectContains(t, save, "409")
		must(t, "see the refused save chosen", expect.Locator(save).ToHaveAttribute("aria-selected", "true"))
		must(t, "see it in view", expect.Locator(save).ToBeInViewport())
		// A tab clicked leaves the arrow keys to the trace: they step, not move in the tab strip.
		press(t, page, "ArrowLeft", headings[2])
		must(t, "see the Network tab still chosen", expect.Locator(trace.GetByRole("tab", playwright.LocatorGetByRoleOptions{Name: regexp.MustCompile(`^Network`)})).ToHaveAttribute("aria-selected", "true"))
		press(t, page, "ArrowRight", headings[3])
		must(t, "see the refused save chosen again", expect.Locator(save).ToHaveAttribute("aria-selected", "true"))
		noScroll(t, page)
		snap(t, page, "refused-step")
		resize(t, page, 1920, 1080)
		must(t, "see it in view at 1920×1080", expect.Locator(save).ToBeInViewport())
		snap(t, page, "refused-step-1080")
		resize(t, page, 1280, 720)
	})

	t.Run("a blind click opens on the click that changed nothing", func(t *testing.T) {
		_, err := page.GetByRole("banner").GetByRole("combobox", playwright.LocatorGetByRoleOptions{Name: "Task"}).
			SelectOption(playwright.SelectOptionValues{Values: &[]string{"lab:canvas"}})
		must(t, "choose the canvas lab", err)
		// The canvas lab's table has columns of its own: wait for the run to end instead.
		must(t, "run the blind click", button(page, "Run A blind click on the drawn board").Click())
		must(t, "see the run end", expect.Locator(button(page, "Stop")).ToBeDisabled(playwright.LocatorAssertionsToBeDisabledOptions{Timeout: playwright.Float(runTimeout)}))
		// The run's one attempt is its only row: selecting it, as a user opening it would, opens its trace where it went wrong.
		blind := row(page, "A blind click on the drawn board")
		must(t, "see the run's one row", expect.Locator(page.GetByRole("table", playwright.PageGetByRoleOptions{Name: "Attempts"}).Locator("tbody tr")).ToHaveCount(1))
		must(t, "select the blind click", blind.Click())
		must(t, "see it selected", expect.Locator(blind).ToHaveAttribute("aria-current", "true"))
		expectText(t, heading, "Step 1 of 2: Click the board to move the knight")
		must(t, "see it marked", expect.Locator(current.GetByRole("img")).ToHaveAttribute("aria-label", "nothing changed"))
	})
}
