package uitest

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/app/cli"
)

// TestARepeatedRunListsItsTrialsNumbered runs `observatory run --lab booking --attempt
// saves-normally --repeat 2` on the window's data folder and opens it from the history: the
// attempts table lists "Saves normally · trial 1" and "· trial 2", with no empty row for the
// attempt itself (it never ran as such), and the second trial's trace is titled with its number.
func TestARepeatedRunListsItsTrialsNumbered(t *testing.T) {
	srv, st, dir := newServerWithStore(t)
	page := openPage(t, srv)
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if code := cli.Execute(ctx, cli.Env{Stdout: &out, Stderr: &errOut}, []string{"run", "--lab", "booking",
		"--attempt", "saves-normally", "--repeat", "2", "--no-video", "--data-dir", dir}); code != 0 {
		t.Fatalf("the repeated run exited %d:\n%s", code, errOut.String())
	}
	runs, err := st.List()
	must(t, "list the runs", err)
	history := page.GetByRole("navigation", playwright.PageGetByRoleOptions{Name: "Run history"})
	must(t, "open the repeated run", history.GetByTestId("run-"+runs[0].ID).Click(playwright.LocatorClickOptions{Timeout: playwright.Float(20_000)}))

	table := page.GetByRole("table", playwright.PageGetByRoleOptions{Name: "Attempts"})
	for _, title := range []string{"Saves normally · trial 1", "Saves normally · trial 2"} {
		must(t, "see "+title, expect.Locator(row(page, title)).ToBeVisible())
	}
	must(t, "see no row for the attempt itself", expect.Locator(row(page, "Saves normally")).ToHaveCount(0))
	must(t, "see only the trials and the task's other attempts", expect.Locator(table.GetByRole("row").Filter(playwright.LocatorFilterOptions{HasText: "has not run"})).ToHaveCount(0))
	must(t, "open trial 2", row(page, "Saves normally · trial 2").Click())
	must(t, "see its trace titled with its number", expect.Locator(page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace"}).
		GetByRole("heading", playwright.LocatorGetByRoleOptions{Name: "Trace: Saves normally · trial 2"})).ToBeVisible())
}
