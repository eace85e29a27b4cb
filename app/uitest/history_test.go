package uitest

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// TestHistoryDeepLinksFiltersAndDelete runs one attempt, links to one of its steps and
// reloads, sees a run another writer stores appear without a reload, filters the history,
// deletes that run, and sees a card with the widest date whole.
func TestHistoryDeepLinksFiltersAndDelete(t *testing.T) {
	srv, st, _ := newServerWithStore(t)
	page := openPage(t, srv)
	runAttempt(t, page, "Saves normally", "completed")
	history := page.GetByRole("navigation", playwright.PageGetByRoleOptions{Name: "Run history"})

	t.Run("a deep link survives a reload", func(t *testing.T) {
		press(t, page, "Home", headings[0])
		press(t, page, "ArrowRight", headings[1])
		press(t, page, "ArrowRight", headings[2])
		must(t, "see the link", expect.Page(page).ToHaveURL(regexp.MustCompile(`#/run/[^/]+/attempt/saves-normally/step/3$`)))
		_, err := page.Reload()
		must(t, "reload", err)
		expectText(t, page.GetByTestId("step-heading"), headings[2])
		must(t, "see the attempt selected", expect.Locator(row(page, "Saves normally")).ToHaveAttribute("aria-current", "true"))
		must(t, "see the run current in the history", expect.Locator(history.Locator(`[aria-current="true"]`)).ToHaveCount(1))
	})

	t.Run("a run another writer stores appears without a reload", func(t *testing.T) {
		other := agent.Run{ID: "20260101-000000-other", Task: "booking", Created: time.Now().Add(-48 * time.Hour), Source: "colleague.json"}
		must(t, "store a run", st.SaveImported(other))
		must(t, "see it listed", expect.Locator(history.GetByTestId("run-"+other.ID)).ToContainText("booking · colleague.json",
			playwright.LocatorAssertionsToContainTextOptions{Timeout: playwright.Float(10_000)}))
		expectText(t, history.GetByRole("status"), "2 runs")
	})

	t.Run("filters and search narrow the list", func(t *testing.T) {
		_, err := history.GetByLabel("Source").SelectOption(playwright.SelectOptionValues{Values: &[]string{"imported"}})
		must(t, "filter imported", err)
		expectText(t, history.GetByRole("status"), "1 of 2 runs")
		must(t, "filter wrong attempts", history.GetByLabel("with wrong attempts").Check())
		must(t, "see no match", expect.Locator(history.GetByText("No run matches.")).ToBeVisible())
		must(t, "clear the filters", history.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Clear"}).Click())
		must(t, "search", history.GetByLabel("Search runs").Fill("COLLEAGUE"))
		expectText(t, history.GetByRole("status"), "1 of 2 runs")
		checkA11y(t, page, "the filtered history")
		must(t, "clear the search", history.GetByLabel("Search runs").Fill(""))
	})

	t.Run("delete asks, then removes the run", func(t *testing.T) {
		id := "20260101-000000-other"
		must(t, "ask to delete", button(page, "Delete run "+id).Click())
		must(t, "confirm", history.GetByRole("group", playwright.LocatorGetByRoleOptions{Name: "Delete run " + id + "?"}).
			GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Delete", Exact: playwright.Bool(true)}).Click())
		must(t, "see it gone", expect.Locator(history.GetByTestId("run-"+id)).ToHaveCount(0))
		expectText(t, history.GetByRole("status"), "1 run")
		if runs, err := st.List(); err != nil || len(runs) != 1 {
			t.Errorf("the store lists %+v, %v; want only the live run", runs, err)
		}
	})

	t.Run("a card shows its run's id, counts and date whole at 1280×720", func(t *testing.T) {
		// The widest card date: this year, not today, two-digit month, day and hour.
		now := time.Now()
		widest := time.Date(now.Year(), 12, 26, 10, 7, 0, 0, time.Local)
		if widest.YearDay() == now.YearDay() {
			widest = time.Date(now.Year(), 11, 28, 10, 7, 0, 0, time.Local)
		}
		must(t, "store a run with the widest date", st.RunStarted(agent.Run{ID: "20261226-100700-widest", Task: "booking", Created: widest}))
		// And counts of three digits: 100 trials, each completed and called done by a gate
		// the ground truth contradicts.
		for i := range 100 {
			wrong := agent.Attempt{Slug: fmt.Sprintf("trial-%d", i), Terminal: agent.Completed,
				Verdicts: agent.Verdicts{Gate: agent.Gate{Done: true}}}
			must(t, "store a trial", st.AttemptStarted("20261226-100700-widest", i, wrong))
		}
		// Not stored as run here (its source is not "live"), its card says when it was added,
		// the widest words a card's date takes.
		must(t, "see it listed, added on the widest date", expect.Locator(history.GetByTestId("run-20261226-100700-widest")).ToContainText(
			regexp.MustCompile(`added \d\d/\d\d, 10:07`), playwright.LocatorAssertionsToContainTextOptions{Timeout: playwright.Float(10_000)}))
		resize(t, page, 1280, 720)
		expectText(t, history.GetByTestId("run-20261226-100700-widest").Locator(".counts"), "100/100 completed · 100 wrong")
		cut, err := history.Evaluate(`h => [...h.querySelectorAll(".history-entry .run-id, .history-entry .open > .line.muted")]
			.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)`, nil)
		must(t, "measure the cards", err)
		if len(cut.([]any)) > 0 {
			t.Errorf("history cards cut %v", cut)
		}
	})
}
