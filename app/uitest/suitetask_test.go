package uitest

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// TestOpeningASuiteKeepsTheTaskChosen: a suite of two booking trials is run from the command
// line; in the window the user picks the checkout lab, then opens the suite from the history
// and a trial from its grid. The header's task picker still names checkout throughout, the
// trial's trace is shown, and its table is the suite run's own attempts.
func TestOpeningASuiteKeepsTheTaskChosen(t *testing.T) {
	srv, st, dir := newServerWithStore(t)
	folder := t.TempDir()
	task, err := os.ReadFile(filepath.Join("..", "..", "backend", "labs", "booking", "task.yaml"))
	must(t, "read the booking task file", err)
	must(t, "write the task file", os.WriteFile(filepath.Join(folder, "booking.yaml"), task, 0o644))
	suite := "schema: observatory.suite/v1\nname: smoke\nrepeat: 2\ntasks:\n  - file: booking.yaml\n    attempts: [saves-normally]\n"
	must(t, "write the suite file", os.WriteFile(filepath.Join(folder, "smoke.yaml"), []byte(suite), 0o644))
	commandLine(t, st, dir, "run", filepath.Join(folder, "smoke.yaml"))

	page := openPage(t, srv)
	picker := page.Locator("header").GetByLabel("Task", playwright.LocatorGetByLabelOptions{Exact: playwright.Bool(true)})
	must(t, "see the task picker", expect.Locator(picker).ToBeEnabled())
	_, err = picker.SelectOption(playwright.SelectOptionValues{Values: &[]string{"lab:checkout"}})
	must(t, "pick the checkout lab", err)
	must(t, "see checkout picked", expect.Locator(picker).ToHaveValue("lab:checkout"))

	history := page.GetByRole("navigation", playwright.PageGetByRoleOptions{Name: "Run history"})
	must(t, "open the suite", history.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "suite smoke"}).First().Click())
	view := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Suite smoke"})
	must(t, "see the suite", expect.Locator(view).ToBeVisible())
	must(t, "see checkout still picked with the suite open", expect.Locator(picker).ToHaveValue("lab:checkout"))

	must(t, "open trial 2", view.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: regexp.MustCompile(`^Saves normally, trial 2: completed`)}).Click())
	trace := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace", Exact: playwright.Bool(true)})
	must(t, "see the trial's trace", expect.Locator(trace.GetByRole("heading", playwright.LocatorGetByRoleOptions{Name: "Trace: Saves normally · trial 2"})).ToBeVisible())
	must(t, "see checkout still picked with the trial open", expect.Locator(picker).ToHaveValue("lab:checkout"))
	must(t, "see the suite run's two trials as the rows", expect.Locator(page.GetByRole("table", playwright.PageGetByRoleOptions{Name: "Attempts"}).Locator("tbody tr")).ToHaveCount(2))
	must(t, "see the first trial's row", expect.Locator(row(page, "Saves normally · trial 1")).ToBeVisible())
	snap(t, page, "suite-keeps-task")
}
