package uitest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
)

// TestLiveCardsOfAParallelRun sets two attempts at once in Settings, checks the local
// browser endpoint's health there, and runs the booking lab in `serve`: two cards run side by
// side, each with the page's live screencast frame, its step and its gate; a click on a card
// opens that attempt's trace; axe-core finds no violation
// with the cards up; and Stop stops every attempt in flight, leaving none running and the
// rest never started.
func TestLiveCardsOfAParallelRun(t *testing.T) {
	srv, st, _ := newServerWithStore(t)
	page := openPage(t, srv)
	must(t, "open the settings", button(page, "Settings").Click())
	must(t, "run two attempts at once", page.GetByLabel("Attempts at once").Fill("2"))
	must(t, "save", button(page, "Save").Click())
	must(t, "check the endpoints", button(page, "Check endpoints").Click())
	local := page.GetByTestId("endpoint-local")
	must(t, "the local Chromium connects", expect.Locator(local).ToContainText("yes (",
		playwright.LocatorAssertionsToContainTextOptions{Timeout: playwright.Float(runTimeout)}))
	expectContains(t, local, "local Chromium")
	must(t, "close the settings", button(page, "Settings").Click())

	must(t, "run all", button(page, "Run all").Click())
	cards := page.Locator(".live-card")
	must(t, "two cards at once", expect.Locator(cards).ToHaveCount(2, playwright.LocatorAssertionsToHaveCountOptions{Timeout: playwright.Float(runTimeout)}))
	frames := page.Locator(".live-card img.live-screen")
	must(t, "a live frame on both cards", expect.Locator(frames).ToHaveCount(2, playwright.LocatorAssertionsToHaveCountOptions{Timeout: playwright.Float(runTimeout)}))
	for i := range 2 {
		src, err := frames.Nth(i).GetAttribute("src")
		must(t, "read a card's frame", err)
		if !strings.HasPrefix(src, "data:image/jpeg;base64,") {
			t.Errorf("card %d shows %.40q, want a JPEG screencast frame", i+1, src)
		}
	}
	must(t, "a card names its gate", expect.Locator(cards.First().Locator(".live-gate")).ToContainText("gate"))
	checkA11y(t, page, "the live cards")

	// The card is named by its attempt, not its place: cards come and go as attempts end. The
	// trace stays on the attempt picked by hand even once it ends and others start.
	second, title := openLiveCard(t, page, cards)
	must(t, "its trace opens", expect.Locator(page.Locator(".trace-head h2")).ToHaveText("Trace: "+title))
	must(t, "the picked attempt ends", expect.Locator(second).ToHaveCount(0, playwright.LocatorAssertionsToHaveCountOptions{Timeout: playwright.Float(runTimeout)}))
	must(t, "the picked attempt is still shown", expect.Locator(page.Locator(".trace-head h2")).ToHaveText("Trace: "+title))
	if t.Failed() {
		return
	}

	must(t, "stop", button(page, "Stop").Click())
	must(t, "the cards go", expect.Locator(cards).ToHaveCount(0, playwright.LocatorAssertionsToHaveCountOptions{Timeout: playwright.Float(runTimeout)}))
	runs, err := st.List()
	must(t, "list the runs", err)
	if len(runs) != 1 {
		t.Fatalf("%d runs stored, want 1", len(runs))
	}
	// The cards go as the attempts end; the run itself ends once their media is saved.
	run, err := st.Get(runs[0].ID)
	for deadline := time.Now().Add(runTimeout * time.Millisecond); err == nil && run.Status == agent.RunRunning && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		run, err = st.Get(runs[0].ID)
	}
	must(t, "read the run", err)
	if run.Status != agent.RunCancelled {
		t.Errorf("the stopped run is %s, want cancelled", run.Status)
	}
	cancelled := 0
	for _, a := range run.Attempts {
		switch a.Terminal {
		case "":
			t.Errorf("%s was left running after Stop", a.Slug)
		case agent.Cancelled:
			cancelled++
		}
	}
	if cancelled == 0 || len(run.Attempts) == 8 {
		t.Errorf("after Stop: %d attempts stored, %d cancelled; want the ones in flight cancelled and the rest never started", len(run.Attempts), cancelled)
	}
}

// openLiveCard clicks the second of the live cards and returns it, named by its attempt, and
// the attempt's title. The card's attempt may end, and its card go, between reading it and
// the click: then the card now second is opened instead, a bounded number of times.
func openLiveCard(t *testing.T, page playwright.Page, cards playwright.Locator) (playwright.Locator, string) {
	t.Helper()
	for k := 1; ; k++ {
		must(t, "see a second card", expect.Locator(cards.Nth(1)).ToBeVisible())
		read, err := cards.Nth(1).Evaluate(`c => [c.dataset.testid, c.querySelector(".live-title")?.textContent ?? ""]`, nil,
			playwright.LocatorEvaluateOptions{Timeout: playwright.Float(2000)})
		if err == nil {
			id, title := read.([]any)[0].(string), read.([]any)[1].(string)
			card := page.GetByTestId(id)
			if err = card.Click(playwright.LocatorClickOptions{Timeout: playwright.Float(2000)}); err == nil {
				return card, title
			}
		}
		if k == 5 {
			must(t, "open the second card", fmt.Errorf("every card went before its click: %v", err))
		}
	}
}
