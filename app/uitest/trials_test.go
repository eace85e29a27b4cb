package uitest

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/app/cli"
)

// TestARepeatedRunOpensAsItsGrid runs `observatory run --lab booking --attempt saves-normally
// --repeat 6` on the window's data folder and opens it from the history at 1280×720: it opens
// as its grid, one row of six trials with the attempt's rate and interval; a trial chosen there
// opens its trace, titled with its number, and the attempts table lists the six trials
// numbered, with no empty row for the attempt itself (it never ran as such).
func TestARepeatedRunOpensAsItsGrid(t *testing.T) {
	srv, st, dir := newServerWithStore(t)
	page := openPage(t, srv)
	resize(t, page, 1280, 720)
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	if code := cli.Execute(ctx, cli.Env{Stdout: &out, Stderr: &errOut}, []string{"run", "--lab", "booking",
		"--attempt", "saves-normally", "--repeat", "6", "--no-video", "--data-dir", dir}); code != 0 {
		t.Fatalf("the repeated run exited %d:\n%s", code, errOut.String())
	}
	runs, err := st.List()
	must(t, "list the runs", err)
	history := page.GetByRole("navigation", playwright.PageGetByRoleOptions{Name: "Run history"})
	must(t, "open the repeated run", history.GetByTestId("run-"+runs[0].ID).Click(playwright.LocatorClickOptions{Timeout: playwright.Float(20_000)}))

	grid := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: regexp.MustCompile(`^Suite booking, run `)})
	must(t, "see the run as its grid", expect.Locator(grid).ToBeVisible())
	line := grid.GetByTestId("suite-booking/saves-normally")
	cells := line.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: regexp.MustCompile(`^Saves normally, trial \d: completed`)})
	must(t, "see six trials, each completed", expect.Locator(cells).ToHaveCount(6))
	must(t, "see the rate with its interval", expect.Locator(line.GetByRole("img", playwright.LocatorGetByRoleOptions{Name: regexp.MustCompile(`^100%, 95% interval \d+% to 100%$`)})).ToBeVisible())
	must(t, "see the trials in view", expect.Locator(cells.Last()).ToBeInViewport())
	noScroll(t, page)
	snap(t, page, "repeat-grid")
	resize(t, page, 1920, 1080)
	snap(t, page, "repeat-grid-1080")
	resize(t, page, 1280, 720)

	must(t, "open trial 2", line.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: regexp.MustCompile(`^Saves normally, trial 2:`)}).Click())
	must(t, "see its trace titled with its number", expect.Locator(page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace"}).
		GetByRole("heading", playwright.LocatorGetByRoleOptions{Name: "Trace: Saves normally · trial 2"})).ToBeVisible())
	must(t, "see the grid gone", expect.Locator(grid).ToHaveCount(0))
	must(t, "unfold the attempts table", button(page, "All attempts (A)").Click())
	for k := 1; k <= 6; k++ {
		title := fmt.Sprintf("Saves normally · trial %d", k)
		must(t, "see "+title, expect.Locator(row(page, title)).ToHaveCount(1))
	}
	must(t, "see no row for the attempt itself", expect.Locator(row(page, "Saves normally")).ToHaveCount(0))
}
