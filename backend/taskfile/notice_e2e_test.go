package taskfile_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"observatory/backend/runfile"
	"observatory/backend/runner"
	"observatory/backend/taskfile"
)

// toastTask adds an expense (the amount is %[2]s) to the expenses app at %[1]s. Its signals
// are the app's snackbar, named by where it is shown, and the page's own announcements,
// which the snackbar is not.
const toastTask = `schema: observatory.task/v1
name: expense-toast
intent: Add a taxi expense.
base_url: %[1]s
start_url: /
plan:
  - {description: Fill the amount, action: fill, target: {label: Amount}, value: "%[2]s"}
  - {description: Fill the merchant, action: fill, target: {label: Merchant}, value: Cab Co}
  - {description: Add the expense, action: click, target: {role: button, name: Add expense}}
success:
  - {id: added, http: {url: /api/state, expr: 'body.expenses.exists(e, e.merchant == "Cab Co")'}}
signals:
  - {id: snackbar, label: the "Expense added." snackbar, notice: {text: Expense added., target: {css: .snackbar}}}
  - {id: announced, label: the page announces it, notice: Expense added.}
`

// TestANamedNoticeInChromium runs a task whose notice is a snackbar with no live region that
// shows for 300 ms: named by its CSS, the notice signal reads it, whether or not the app kept
// the expense (it keeps only numbers, and shows the snackbar all the same), while the page's
// own announcements never have it. The verdicts are the same judged again from the recorded
// evidence and from the run file, with the task loaded and rebuilt from its spec.
func TestANamedNoticeInChromium(t *testing.T) {
	launch := launcher(t)
	for _, tt := range []struct {
		amount string
		gate   bool
	}{{"12.50", true}, {"twelve", false}} {
		t.Run(tt.amount, func(t *testing.T) {
			srv := httptest.NewServer((&expensesApp{toasts: true}).handler())
			t.Cleanup(srv.Close)
			path := filepath.Join(t.TempDir(), "toast.yaml")
			if err := os.WriteFile(path, fmt.Appendf(nil, toastTask, srv.URL, tt.amount), 0o644); err != nil {
				t.Fatal(err)
			}
			suite, err := taskfile.Load(path, taskfile.Options{})
			if err != nil {
				t.Fatal(err)
			}
			r := &runner.Runner{Suite: suite, Spec: suite.Spec(), Planner: suite.Planner, Launch: launch}
			run, err := r.Run(context.Background(), "toast", runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			a := run.Attempts[0]
			if a.Verdicts.Gate.Done != tt.gate {
				t.Errorf("gate %v (%+v), want %v", a.Verdicts.Gate.Done, a.Verdicts.Gate.Conditions, tt.gate)
			}
			want := map[string]string{"snackbar": "yes", "announced": "no"}
			for _, s := range a.Verdicts.Signals {
				if got := cell(s.Verdict); got != want[s.ID] {
					t.Errorf("signal %s: %s (%s), want %s", s.ID, got, s.Verdict.Evidence, want[s.ID])
				}
			}
			rejudge(t, suite, a)
			// A run file keeps what the named place announced: imported, it judges the same.
			var buf bytes.Buffer
			if err := runfile.Encode(&buf, run); err != nil {
				t.Fatal(err)
			}
			back, err := runfile.Decode(&buf)
			if err != nil {
				t.Fatal(err)
			}
			rejudge(t, suite, back.Run.Attempts[0])
		})
	}
}
