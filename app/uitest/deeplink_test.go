package uitest

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/app/cli"
	"observatory/backend/labs/booking"
	"observatory/backend/store"
)

// commandLine runs `observatory ARGS --no-video --data-dir dir` as another process sharing the
// window's data folder would, and returns the id of the newest run it stored; a run some of
// whose attempts did not complete is one that went.
func commandLine(t *testing.T, st *store.Store, dir string, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// 2: the run went, and an attempt did not complete
	if code := cli.Execute(ctx, cli.Env{Stdout: &out, Stderr: &errOut}, append(args, "--no-video", "--data-dir", dir)); code != 0 && (code != 2 || !strings.Contains(errOut.String(), "did not complete")) {
		t.Fatalf("observatory %v exited %d:\n%s", args, code, errOut.String())
	}
	runs, err := st.List()
	must(t, "list the runs", err)
	return runs[0].ID
}

// TestALinkOpensItsStepWhileAnotherRunGoes: a command-line run of one attempt ("Save refused
// by the server") is stored; while another command-line run goes (one that waits on the
// window's approval), a link to its step 2 is opened, in the window following that run and in
// the window loaded anew on the link. The window shows the linked run, that
// attempt's row selected, its trace on step 2 (the list's current step in view), never
// "Select an attempt"; and the other run, asking the window and then ending, does not take
// the view. The run shows only the attempt it ran as a row; the lab's seven others are
// offered below the table, to run.
func TestALinkOpensItsStepWhileAnotherRunGoes(t *testing.T) {
	srv, st, dir := newServerWithStore(t)
	id := commandLine(t, st, dir, "run", "--lab", "booking", "--attempt", "save-refused")
	stored, err := st.Get(id)
	must(t, "read the run", err)
	steps := stored.Attempts[0].Steps
	heading := fmt.Sprintf("Step 2 of %d: %s", len(steps), steps[1].Action.Description)
	page := openPage(t, srv)
	must(t, "see the run in the history", expect.Locator(page.GetByText("1 run", playwright.PageGetByTextOptions{Exact: playwright.Bool(true)})).ToBeVisible())

	code := make(chan int, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	var errOut bytes.Buffer
	task := guardedBookingTask(t) // here: t.Fatal belongs to the test's goroutine
	go func() {
		code <- cli.Execute(ctx, cli.Env{Stdout: &bytes.Buffer{}, Stderr: &errOut}, []string{"run", task,
			"--attempt", "guarded", "--approve", "ask", "--no-video", "--data-dir", dir})
	}()
	exited := false
	t.Cleanup(func() {
		cancel()
		if !exited {
			<-code
		}
	})
	must(t, "see the other run followed", expect.Locator(page.GetByTestId("progress")).ToContainText("started elsewhere (observatory run, pid "))

	// The window shows the other run; the link is pasted into its address.
	_, err = page.Goto(srv.URL + "/#/run/" + id + "/attempt/save-refused/step/2")
	must(t, "open the link", err)
	trace := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace", Exact: playwright.Bool(true)})
	shows := func(t *testing.T, when string) {
		t.Helper()
		must(t, when+": see the attempt's trace", expect.Locator(trace.GetByRole("heading", playwright.LocatorGetByRoleOptions{Name: "Trace: Save refused by the server"})).ToBeVisible())
		must(t, when+": see step 2", expect.Locator(trace.GetByTestId("step-heading")).ToHaveText(heading))
		current := trace.Locator(`[aria-current="step"]`)
		must(t, when+": see step 2 current in the list", expect.Locator(current).ToContainText(steps[1].Action.Description))
		must(t, when+": see the current step in view", expect.Locator(current).ToBeInViewport())
		selected := page.GetByRole("table", playwright.PageGetByRoleOptions{Name: "Attempts"}).Locator(`tbody tr[aria-current="true"]`)
		must(t, when+": see the attempt's row selected", expect.Locator(selected).ToHaveAttribute("aria-label", "Save refused by the server"))
		must(t, when+": see no call to select an attempt", expect.Locator(page.GetByText("Select an attempt to see its trace.")).ToHaveCount(0))
		must(t, when+": see the link kept", expect.Page(page).ToHaveURL(regexp.MustCompile(`#/run/`+regexp.QuoteMeta(id)+`/attempt/save-refused/step/2$`)))
	}
	shows(t, "opened")
	snap(t, page, "link-while-another-runs")
	// The window loaded anew on the link, the other run still going.
	_, err = page.Reload()
	must(t, "reload on the link", err)
	shows(t, "reloaded")

	t.Run("the run shows only what ran", func(t *testing.T) {
		body := page.GetByRole("table", playwright.PageGetByRoleOptions{Name: "Attempts"}).Locator("tbody tr")
		must(t, "see one row", expect.Locator(body).ToHaveCount(1))
		must(t, "see it visible", expect.Locator(body).ToBeVisible())
		others := page.GetByTestId("not-in-run")
		must(t, "see the others offered below", expect.Locator(others).ToBeVisible())
		must(t, "see seven of them", expect.Locator(others.GetByRole("button")).ToHaveCount(len(booking.New().Attempts())-1))
		must(t, "see Saves normally among them", expect.Locator(others.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Run Saves normally"})).ToBeVisible())
		must(t, "see no row for it", expect.Locator(row(page, "Saves normally")).ToHaveCount(0))
	})

	// The other run asks the window, which answers each card, the link's step shown at each;
	// the run goes on, saves and ends completed, the link's step shown throughout.
	asked, c := approveUntilEnd(t, page, code, 2*time.Minute, func(int) { shows(t, "asked") })
	exited = true
	if c != 0 {
		t.Fatalf("the other run exited %d, want 0 (its attempt completed):\n%s", c, errOut.String())
	}
	if len(asked) == 0 || !strings.Contains(asked[len(asked)-1], "Save reservation") {
		t.Errorf("the window was asked %d times, last %q; want the other run's save put to it and answered", len(asked), asked)
	}
	shows(t, "the other run ended")
}
