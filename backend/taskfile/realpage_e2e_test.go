package taskfile_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/runfile"
	"observatory/backend/runner"
	"observatory/backend/taskfile"
)

// expensesApp is the small expenses app every tutorial builds, with the markup real apps
// use: labels wrapping their controls, a Delete button in every row, a notes form in an
// iframe, and no welcome guide today. It keeps its state in memory and shows it at
// /api/state. With toasts it says "Expense added." after every add, in a snackbar with no
// live region that hides itself after 300 ms, and keeps only amounts that are numbers: the
// toast shows all the same.
type expensesApp struct {
	mu       sync.Mutex
	expenses []expense
	note     string
	toasts   bool
}

type expense struct {
	Category string `json:"category"`
	Amount   string `json:"amount"`
	Merchant string `json:"merchant"`
}

func (app *expensesApp) handler() http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = fmt.Fprint(w, body)
	}
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		app.mu.Lock()
		var rows strings.Builder
		for i, e := range app.expenses {
			fmt.Fprintf(&rows, `<tr><td>%s</td><td>%s</td><td>%s</td><td><form method="post" action="/delete?i=%d"><button>Delete</button></form></td></tr>`,
				html.EscapeString(e.Merchant), html.EscapeString(e.Category), html.EscapeString(e.Amount), i)
		}
		toast := ""
		if app.toasts && r.URL.Query().Has("added") {
			toast = `<script>addEventListener("DOMContentLoaded", () => {
  const s = document.createElement("div"); s.className = "snackbar"; s.textContent = "Expense added.";
  document.body.append(s); setTimeout(() => s.remove(), 300);
});</script>`
		}
		app.mu.Unlock()
		page(w, `<!doctype html><title>Expenses</title>`+toast+`<h1>Expenses</h1>
<form method="post" action="/add">
<label>Category <select name="category"><option>Food</option><option>Travel</option></select></label>
<label>Amount <input name="amount"></label>
<label>Merchant <input name="merchant"></label>
<button>Add expense</button></form>
<table><thead><tr><th>Merchant</th><th>Category</th><th>Amount</th><th></th></tr></thead><tbody>`+rows.String()+`</tbody></table>
<iframe title="Notes" src="/notes"></iframe>`)
	})
	mux.HandleFunc("POST /add", func(w http.ResponseWriter, r *http.Request) {
		app.mu.Lock()
		defer app.mu.Unlock()
		if _, err := strconv.ParseFloat(r.FormValue("amount"), 64); err == nil || !app.toasts {
			app.expenses = append(app.expenses, expense{r.FormValue("category"), r.FormValue("amount"), r.FormValue("merchant")})
		}
		to := "/"
		if app.toasts {
			to = "/?added"
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
	})
	mux.HandleFunc("POST /delete", func(w http.ResponseWriter, r *http.Request) {
		app.mu.Lock()
		var i int
		if _, err := fmt.Sscan(r.URL.Query().Get("i"), &i); err == nil && i >= 0 && i < len(app.expenses) {
			app.expenses = append(app.expenses[:i], app.expenses[i+1:]...)
		}
		app.mu.Unlock()
		http.Redirect(w, r, "/", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /notes", func(w http.ResponseWriter, r *http.Request) {
		page(w, `<!doctype html><title>Notes</title><form method="post" action="/notes"><label>Note <textarea name="note"></textarea></label><button>Save note</button></form>`)
	})
	mux.HandleFunc("POST /notes", func(w http.ResponseWriter, r *http.Request) {
		app.mu.Lock()
		app.note = r.FormValue("note")
		app.mu.Unlock()
		page(w, `<!doctype html><title>Notes</title><p role="status">Note saved</p>`)
	})
	mux.HandleFunc("GET /api/state", func(w http.ResponseWriter, r *http.Request) {
		app.mu.Lock()
		defer app.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"expenses": app.expenses, "note": app.note})
	})
	return mux
}

// expensesTask adds a travel expense through the wrapping labels, deletes the lunch row by
// its row, and saves a note inside the Notes frame; its first step dismisses a welcome guide
// the app does not show today.
const expensesTask = `schema: observatory.task/v1
name: expenses
intent: Add a 12.50 taxi expense as Travel, delete the lunch, and note it.
base_url: %s
start_url: /
config: {budget: 12}
plan:
  - {description: Dismiss the welcome guide, action: click, target: {role: button, name: Got it}, optional: true}
  - {description: Choose the category, action: select, target: {label: Category}, value: Travel}
  - {description: Fill the amount, action: fill, target: {label: Amount}, value: "12.50"}
  - {description: Fill the merchant, action: fill, target: {label: Merchant}, value: Cab Co}
  - {description: Add the expense, action: click, target: {role: button, name: Add expense}}
  - {description: Delete the lunch, action: click, target: {role: button, name: Delete, within: {role: row, name: Lunch}}}
  - {description: Write the note, action: fill, target: {label: Note, frame: {title: Notes}}, value: taxi to the airport}
  - {description: Save the note, action: click, target: {role: button, name: Save note, frame: [{title: Notes}]}}
  - {description: Check, action: verify}
success:
  - {id: added, http: {url: /api/state, expr: 'body.expenses.exists(e, e.category == "Travel" && e.amount == "12.50" && e.merchant == "Cab Co")'}}
  - {id: deleted, http: {url: /api/state, expr: '!body.expenses.exists(e, e.merchant == "Lunch")'}}
  - {id: noted, http: {url: /api/state, expr: 'body.note == "taxi to the airport"'}}
  - {id: noted-shown, page: {text: Note saved, frame: {title: Notes}}}
signals:
  - {id: notice, notice: Note saved}
  - {id: parallax, parallax: {}}
  - {id: other-frame, page: {text: Note saved, frame: {title: Receipts}}}
`

// TestARealFormPatternTaskInChromium runs the expenses task file in Chromium: every step
// acts (the absent welcome guide's is skipped), the gate holds on the app's own state and on
// the Notes frame's text (a page condition in a frame the page does not have does not), and
// the run file keeps the targets' frames, containers and the optional step.
func TestARealFormPatternTaskInChromium(t *testing.T) {
	app := &expensesApp{expenses: []expense{{"Food", "9.00", "Lunch"}, {"Food", "4.00", "Coffee"}}}
	srv := httptest.NewServer(app.handler())
	t.Cleanup(srv.Close)
	path := filepath.Join(t.TempDir(), "expenses.yaml")
	if err := os.WriteFile(path, fmt.Appendf(nil, expensesTask, srv.URL), 0o644); err != nil {
		t.Fatal(err)
	}
	suite, err := taskfile.Load(path, taskfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := &runner.Runner{Suite: suite, Spec: suite.Spec(), Planner: suite.Planner, Launch: launcher(t)}
	run, err := r.Run(context.Background(), "expenses", runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := run.Attempts[0]
	if a.Terminal != agent.Completed || !a.Verdicts.Gate.Done || len(a.Steps) != 9 {
		t.Fatalf("%s after %d steps (%s), gate %v; want completed after 9", a.Terminal, len(a.Steps), a.Reason, a.Verdicts.Gate.Done)
	}
	for i, s := range a.Steps {
		if s.Error != "" || s.Skipped() != (i == 0) {
			t.Errorf("step %d (%s): error %q, skipped %v", i+1, s.Action.Description, s.Error, s.Skipped())
		}
	}
	for _, s := range a.Verdicts.Signals {
		if s.ID == "other-frame" && (s.Verdict.Done || !strings.Contains(s.Verdict.Evidence, `no shown frame with title "Receipts"`)) {
			t.Errorf("a page condition in a frame the page does not have gave %+v", s.Verdict)
		}
	}
	if got := app.expenses; len(got) != 2 || got[0].Merchant != "Coffee" || got[1].Category != "Travel" {
		t.Errorf("the app holds %+v", got)
	}
	var buf bytes.Buffer
	if err := runfile.Encode(&buf, run); err != nil {
		t.Fatal(err)
	}
	back, err := runfile.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	steps := back.Run.Attempts[0].Steps
	if !steps[0].Skipped() || steps[5].Action.Target.Within.Name != "Lunch" || len(steps[7].Action.Target.Frames.List()) != 1 {
		t.Errorf("the run file lost the optional step, the container or the frame: %+v, %+v, %+v", steps[0].Action, steps[5].Action.Target, steps[7].Action.Target)
	}
}
