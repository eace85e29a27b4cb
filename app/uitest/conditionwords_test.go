package uitest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// TestAConditionSaysInWordsWhyItFails runs a task file whose http condition asks for a saved
// note of a state API that keeps it as a draft, and sees, in the gate's checklist, the
// condition say in words what it saw against what it wanted, with the task's own words for it,
// its CEL hidden until "show condition" is opened.
func TestAConditionSaysInWordsWhyItFails(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/api/notes", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"notes":[{"title":"Groceries","state":"draft"},{"title":"Books","state":"saved"}]}`)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, savePage)
	})
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)
	const expr = `body.notes.exists(n, n.title == "Groceries" && n.state == "saved")`
	task := fmt.Sprintf(`schema: observatory.task/v1
name: save-groceries
intent: Save the groceries note.
start_url: %s/
plan:
  - description: Save the note
    action: click
    target: {role: button, name: Save note}
  - description: Verify the note is stored
    action: verify
success:
  - id: stored
    label: The API has the note, saved
    http:
      url: %s/api/notes
      expr: '%s'
      says: the groceries note is saved
config:
  deadline_ms: 600
`, site.URL, site.URL, expr)
	path := filepath.Join(t.TempDir(), "save-groceries.yaml")
	must(t, "write the task file", os.WriteFile(path, []byte(task), 0o644))

	page := openPage(t, newServer(t))
	must(t, "open the task file", page.GetByTestId("task-file").SetInputFiles(path))
	r := row(page, "save-groceries")
	must(t, "click ▶", button(page, "Run save-groceries").Click())
	must(t, "see it fail", expect.Locator(cell(r, 2)).ToHaveText("failed",
		playwright.LocatorAssertionsToHaveTextOptions{Timeout: playwright.Float(runTimeout)}))
	must(t, "open the gate", page.GetByRole("tab", playwright.PageGetByRoleOptions{Name: "Gate"}).Click())
	stored := page.GetByTestId("condition-stored")
	evidence := stored.Locator(".evidence")
	must(t, "see the evidence", expect.Locator(evidence).ToBeVisible())
	must(t, "read it in words", expect.Locator(evidence).ToHaveText(`status 200: none of the 2 items of notes matches; the closest, #1: state is "draft", want "saved" (want: the groceries note is saved)`))
	source := stored.GetByText(expr)
	must(t, "see no CEL until asked", expect.Locator(source).Not().ToBeVisible())
	must(t, "show the condition", stored.GetByText("show condition").Click())
	must(t, "see its CEL", expect.Locator(source).ToBeVisible())
	checkA11y(t, page, "a condition explained in words, its CEL shown")
}
