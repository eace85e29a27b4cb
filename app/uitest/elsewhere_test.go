package uitest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/app/cli"
	"observatory/backend/agent"
)

// guardedBookingTask is the booking lab's task file with one attempt of its own, whose
// irreversible actions need the user's approval, with two minutes to answer: a card may come
// up while a test still looks at something else, and a loaded machine must not hold it.
func guardedBookingTask(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "backend", "labs", "booking", "task.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	head, _, ok := strings.Cut(string(data), "\nattempts:")
	if !ok {
		t.Fatal("the booking task file has no attempts")
	}
	path := filepath.Join(t.TempDir(), "task.yaml")
	task := head + `
attempts:
  - name: guarded
    title: The user approves each irreversible action
    fault: none
    safeguards:
      approval: {required_for: [irreversible], limit_ms: 120000}
`
	if err := os.WriteFile(path, []byte(task), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTheWindowAnswersACommandLineRunsApproval: `observatory run` on the window's data folder,
// with no terminal and --approve ask, is shown live in the window (its attempt's card, the
// status bar naming the process) and puts its save to the window's approval card; the user approves it there with
// the keyboard, and the run, in the other command, saves and ends completed.
func TestTheWindowAnswersACommandLineRunsApproval(t *testing.T) {
	srv, _, dir := newServerWithStore(t)
	page := openPage(t, srv)
	// The window is open, its history read, before the run starts: a window open since the
	// run's start is what this test is about.
	must(t, "see the window's empty history", expect.Locator(page.GetByText("0 runs")).ToBeVisible())
	var out, errOut bytes.Buffer
	code := make(chan int, 1)
	task := guardedBookingTask(t) // here: t.Fatal belongs to the test's goroutine
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		code <- cli.Execute(ctx, cli.Env{Stdout: &out, Stderr: &errOut}, []string{"run", task,
			"--attempt", "guarded", "--approve", "ask", "--json", "--no-video", "--data-dir", dir})
	}()

	// The plan's irreversible clicks (opening the booking, saving it) each ask: every card is
	// approved as it comes, until the run ends.
	asked, exit := approveUntilEnd(t, page, code, 3*time.Minute, func(k int) {
		if k == 0 {
			must(t, "see the run followed live, named by its process",
				expect.Locator(page.GetByTestId("progress")).ToContainText("started elsewhere (observatory run, pid "))
			must(t, "see the attempt's live card", expect.Locator(page.Locator(".live-card")).ToHaveCount(1))
		}
	})
	if len(asked) == 0 || !strings.Contains(asked[len(asked)-1], "Save reservation") {
		t.Errorf("the window was asked %d times, last %q; want the save put to it", len(asked), asked)
	}
	var rows []struct {
		Terminal agent.Terminal `json:"terminal"`
	}
	if err := json.Unmarshal(out.Bytes(), &rows); exit != 0 || err != nil || len(rows) != 1 || rows[0].Terminal != agent.Completed {
		t.Fatalf("the run exited %d with %s (%v):\n%s", exit, out.String(), err, errOut.String())
	}
}

// approveUntilEnd approves with y every approval card the window shows until the command-line
// run whose exit status code carries ends, within limit, and returns what each card asked and
// that status. Before each answer it calls seen with the number of cards answered so far.
// After each answer it waits until the card has closed or asks something else.
func approveUntilEnd(t *testing.T, page playwright.Page, code <-chan int, limit time.Duration, seen func(k int)) ([]string, int) {
	t.Helper()
	card := page.GetByRole("alertdialog")
	var asked []string
	for deadline := time.Now().Add(limit); ; time.Sleep(50 * time.Millisecond) {
		select {
		case exit := <-code:
			return asked, exit
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command-line run did not end within %v; the window was asked %q", limit, asked)
		}
		// A poll: a card not shown yet is looked for again.
		if !isVisible(card) {
			continue
		}
		seen(len(asked))
		text, err := card.TextContent()
		must(t, "read the card", err)
		asked = append(asked, text)
		must(t, "approve with y", page.Keyboard().Press("y"))
		must(t, "see the card answered", expect.Locator(card.Filter(playwright.LocatorFilterOptions{HasText: text})).ToHaveCount(0))
	}
}
