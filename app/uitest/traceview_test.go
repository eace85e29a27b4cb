package uitest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// TestTheTraceReadsAStepAndTheWholeAttempt runs the attempt whose save the server refuses, at
// 1280×720, and reads it as a user would: a step's pages before and after side by side, the
// target's box on both where it was measured, what changed under them and the gate in 40 % of
// the trace; the step list searched with /, Enter and Esc; every step's requests in one table,
// the failed first, sorted, filtered by type, and a request's step shown from it; and a task
// file refused, its errors in the error panel with their kind. axe-core finds nothing.
func TestTheTraceReadsAStepAndTheWholeAttempt(t *testing.T) {
	srv, st, _ := newServerWithStore(t)
	page := openPage(t, srv)
	resize(t, page, 1280, 720)
	runAttempt(t, page, "Save refused by the server", "rejected")
	must(t, "see the run end", expect.Locator(button(page, "Stop")).ToBeDisabled())
	rec := stored(t, st, "save-refused")
	trace := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace"})

	t.Run("before and after side by side", func(t *testing.T) {
		press(t, page, "Home", headings[0])
		box := rec.Steps[0].TargetBox
		if box == nil {
			t.Fatal("the stored step 1 has no target box")
		}
		must(t, "see side by side chosen", expect.Locator(button(page, "Side by side")).ToHaveAttribute("aria-pressed", "true"))
		sides := trace.GetByRole("figure")
		must(t, "see two pages", expect.Locator(sides).ToHaveCount(2))
		for i, name := range []string{"Before", "After"} {
			img := sides.Nth(i).GetByRole("img", playwright.LocatorGetByRoleOptions{Name: name + " screenshot"})
			expectOver(t, name, img, sides.Nth(i).GetByTestId("target-box"), *box)
		}
		before, err := sides.Nth(0).BoundingBox()
		must(t, "measure before", err)
		after, err := sides.Nth(1).BoundingBox()
		must(t, "measure after", err)
		if before.Y != after.Y || after.X < before.X+before.Width {
			t.Errorf("before %+v and after %+v are not side by side", before, after)
		}
		expectContains(t, page.GetByTestId("shot-diff"), "Changed: dialog opened")
		share, err := trace.Evaluate(`t => t.querySelector(".tabs").getBoundingClientRect().height / t.querySelector(".trace-main").getBoundingClientRect().height`, nil)
		must(t, "measure the tabs", err)
		// The step's page is the main view; the tabs keep at least a quarter, the gate readable.
		if f, _ := share.(float64); f < 0.24 {
			t.Errorf("the gate's tabs take %.2f of the trace's height, want at least 0.25", f)
		}
		noScroll(t, page)
		checkA11y(t, page, "a step side by side")
		must(t, "open the Call tab", trace.GetByRole("tab", playwright.LocatorGetByRoleOptions{Name: "Call"}).Click())
		expectText(t, page.GetByTestId("call-locator"), `page.getByRole("button", { name: "Reserve slot" })`)
		expectContains(t, trace.GetByRole("list", playwright.LocatorGetByRoleOptions{Name: "Log"}), "allow: ")
		checkA11y(t, page, "the Call tab")
	})

	t.Run("the step list searched", func(t *testing.T) {
		steps := trace.GetByRole("navigation", playwright.LocatorGetByRoleOptions{Name: "Steps"}).GetByRole("button")
		must(t, "press /", page.Keyboard().Press("/"))
		field := page.GetByRole("searchbox", playwright.PageGetByRoleOptions{Name: "Search the steps"})
		must(t, "the search has the focus", expect.Locator(field).ToBeFocused())
		must(t, "type", page.Keyboard().Type("room"))
		must(t, "see one step found", expect.Locator(steps).ToHaveCount(1))
		expectText(t, page.GetByTestId("steps-found"), fmt.Sprintf("1 of %d", len(rec.Steps)))
		must(t, "press Enter", page.Keyboard().Press("Enter"))
		expectText(t, page.GetByTestId("step-heading"), headings[2])
		must(t, "press Esc", page.Keyboard().Press("Escape"))
		must(t, "see every step again", expect.Locator(steps).ToHaveCount(len(rec.Steps)))
		must(t, "the search is empty", expect.Locator(field).ToHaveValue(""))
	})

	t.Run("every step's requests in one table", func(t *testing.T) {
		total, failedAt := 0, -1
		for k, s := range rec.Steps {
			for _, r := range s.Requests {
				if failedAt < 0 && (r.Failure != "" || r.Status >= 400) {
					failedAt = k
				}
				total++
			}
		}
		if failedAt < 0 {
			t.Fatal("the refused save recorded no failed request")
		}
		must(t, "open All requests", trace.GetByRole("tab", playwright.LocatorGetByRoleOptions{Name: "All requests"}).Click())
		table := trace.GetByRole("table", playwright.LocatorGetByRoleOptions{Name: "The attempt's requests"})
		rows := table.Locator("tbody tr")
		must(t, "see every request", expect.Locator(rows).ToHaveCount(total))
		// Failed first: the refused save leads.
		must(t, "see the failed one first", expect.Locator(rows.First()).ToHaveClass(regexp.MustCompile(`\bfailed\b`)))
		expectContains(t, rows.First().Locator("td").Nth(0), fmt.Sprint(failedAt+1))
		must(t, "sort by size", table.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Size"}).Click())
		must(t, "see it sorted", expect.Locator(table.GetByRole("columnheader", playwright.LocatorGetByRoleOptions{Name: "Size"})).ToHaveAttribute("aria-sort", "ascending"))
		must(t, "filter Fetch/XHR", button(page, "Fetch/XHR").Click())
		types, err := rows.Locator("td:nth-child(4)").AllTextContents()
		must(t, "read the types", err)
		for _, ty := range types {
			if ty != "fetch" {
				t.Errorf("Fetch/XHR shows a request of type %q", ty)
			}
		}
		checkA11y(t, page, "the attempt's requests")
		snap(t, page, "all-requests")
		must(t, "show the failed request's step", rows.First().Locator("td").Nth(0).GetByRole("button").Click())
		expectText(t, page.GetByTestId("step-heading"), headings[failedAt])
	})

	t.Run("a refused task file's errors in the panel", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "bad.yaml")
		must(t, "write a bad task file", os.WriteFile(path, []byte("schema: observatory.task/v1\nname: \"\"\nplan: 3\n"), 0o644))
		must(t, "open it", page.GetByTestId("task-file").SetInputFiles(path))
		panel := page.GetByRole("alert", playwright.PageGetByRoleOptions{Name: "Errors"})
		must(t, "see the panel", expect.Locator(panel).ToBeVisible())
		expectContains(t, panel.GetByRole("listitem").First(), "invalid input")
		expectContains(t, page.Locator(".status-error"), "see the panel at the top")
		checkA11y(t, page, "the error panel")
		snap(t, page, "error-panel")
		must(t, "dismiss it", panel.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Dismiss"}).Click())
		must(t, "the panel is gone", expect.Locator(panel).ToHaveCount(0))
	})
}
