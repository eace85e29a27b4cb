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

// savePage is a site of the user's own: a button that says "Saved" and changes nothing else.
const savePage = `<!doctype html><title>Notes</title><main><h1>Notes</h1>
<button onclick="document.getElementById('s').textContent='Saved'">Save note</button>
<p role="status" id="s"></p></main>`

// TestTaskFileColumnsAndCouldNotConfirm opens a task file through the file input, sees the
// attempts table take its columns from the file, runs it against a small site whose state
// API does not answer, and sees that condition read "could not confirm" with its answer, the
// truth (the gate standing in) could not confirm, and the banner neither right nor wrong.
func TestTaskFileColumnsAndCouldNotConfirm(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, savePage)
	}))
	t.Cleanup(site.Close)
	// Nothing listens on port 1: the state API refuses every connection.
	task := fmt.Sprintf(`schema: observatory.task/v1
name: save-note
intent: Save the note.
start_url: %s/
origins: [%s, "http://127.0.0.1:1"]
plan:
  - description: Save the note
    action: click
    target: {role: button, name: Save note}
  - description: Verify the note is stored
    action: verify
success:
  - id: stored
    label: The API has the note
    http:
      url: http://127.0.0.1:1/notes
      expr: status == 200
  - id: shown
    label: The page says Saved
    page:
      text: Saved
signals:
  - {id: banner, label: '"Saved" banner', notice: Saved}
config:
  deadline_ms: 600
`, site.URL, site.URL)
	path := filepath.Join(t.TempDir(), "save-note.yaml")
	must(t, "write the task file", os.WriteFile(path, []byte(task), 0o644))

	page := openPage(t, newServer(t))
	must(t, "open the task file", page.GetByTestId("task-file").SetInputFiles(path))
	expectText(t, page.Locator(".intent"), "Save the note.")
	heads := page.GetByRole("table", playwright.PageGetByRoleOptions{Name: "Attempts"}).GetByRole("columnheader")
	must(t, "see the task's columns", expect.Locator(heads).ToHaveText([]string{"Attempt", "Ground truth (= gate)", "\"Saved\" banner", "Completion gate", "Terminal", "Why", "Run"}))

	// Columns after the title: the truth (the gate standing in), the banner, the gate, terminal.
	r := row(page, "save-note")
	must(t, "click ▶", button(page, "Run save-note").Click())
	must(t, "see it fail", expect.Locator(cell(r, 3)).ToHaveText("failed",
		playwright.LocatorAssertionsToHaveTextOptions{Timeout: playwright.Float(runTimeout)}))
	expectText(t, cell(r, 2), "not done")
	// The gate standing in for the truth could not confirm: so could not the truth, and whether
	// the banner was right is unknown.
	expectText(t, cell(r, 0), "could not confirm")
	expectText(t, cell(r, 1), "doneunknown")
	expectContains(t, r, "could not confirm: The API has the note")
	// A refused connection ends the wait at once, said in words, the URL once.
	expectContains(t, r, "the gate cannot hold, so waiting stopped")
	expectContains(t, page.Locator(".trace-head .ended"), "GET http://127.0.0.1:1/notes: the connection was refused: nothing listens at 127.0.0.1:1")
	stored := page.GetByTestId("condition-stored")
	expectContains(t, stored.Locator(".state"), "could not confirm")
	expectContains(t, stored.GetByTestId("answer-stored"), "no answer:")
	expectContains(t, page.GetByTestId("condition-shown").Locator(".state"), "holds")
	checkA11y(t, page, "a task file's attempt that could not confirm")
	resize(t, page, 1280, 720)
	snap(t, page, "oracle-down")
}
