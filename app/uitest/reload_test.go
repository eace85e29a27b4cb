package uitest

import (
	"regexp"
	"testing"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/labs/booking"
)

// TestAReloadedWindowFollowsTheRun runs the booking lab, reloads the window once the first
// attempt has ended, and checks that the reloaded window shows the run going as one open
// since its start would: the first attempt's verdict, the attempt in flight on its card,
// Stop offered and no second run. When the run ends it shows every attempt's verdict as
// stored, and the stored table is the seed's.
func TestAReloadedWindowFollowsTheRun(t *testing.T) {
	srv, st, _ := newServerWithStore(t)
	page := openPage(t, srv)
	attempts := booking.New().Attempts()
	first := row(page, attempts[0].Title)
	long := playwright.LocatorAssertionsToHaveTextOptions{Timeout: playwright.Float(runTimeout)}

	must(t, "run all", button(page, "Run all").Click())
	must(t, "the first attempt ends", expect.Locator(cell(first, colTerminal)).ToHaveText(regexp.MustCompile(`^[a-z]+$`), long))
	ended, err := cell(first, colTerminal).TextContent()
	must(t, "read the first attempt's end", err)
	_, err = page.Reload()
	must(t, "reload the window", err)
	snap(t, page, "reloaded-mid-run")

	must(t, "the first attempt's verdict is still shown", expect.Locator(cell(row(page, attempts[0].Title), colTerminal)).ToHaveText(ended))
	must(t, "Stop is offered", expect.Locator(button(page, "Stop")).ToBeEnabled())
	must(t, "no second run can start", expect.Locator(button(page, "Run all")).ToBeDisabled())
	must(t, "the attempt in flight has its card", expect.Locator(page.Locator(".live-card")).ToHaveCount(1))
	if t.Failed() {
		return
	}

	must(t, "the run ends", expect.Locator(button(page, "Stop")).ToBeDisabled(playwright.LocatorAssertionsToBeDisabledOptions{Timeout: playwright.Float(runTimeout)}))
	runs, err := st.List()
	must(t, "list the runs", err)
	if len(runs) != 1 {
		t.Fatalf("%d runs stored, want 1", len(runs))
	}
	run, err := st.Get(runs[0].ID)
	must(t, "read the run", err)
	if err := booking.CheckTable(run.Attempts); err != nil {
		t.Fatalf("the stored table is not the seed's: %v", err)
	}
	for i, a := range run.Attempts {
		title := attempts[i].Title // CheckTable holds the attempts in the lab's order
		must(t, title+" shows its stored end", expect.Locator(cell(row(page, title), colTerminal)).ToHaveText(string(a.Terminal)))
	}
}
