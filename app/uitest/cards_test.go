package uitest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mxschmitt/playwright-go"

	"observatory/app/cli"
	"observatory/backend/labs/checkout"
)

// TestCheckoutCardsInTheWindow is a user who approves every card the window shows, reading
// each as Chromium renders it. price-changed's re-ask names the new amount, first, as not
// what the task asked; account-switched shows no card at all: it stops with the reason, and
// nothing is paid from bob's account.
func TestCheckoutCardsInTheWindow(t *testing.T) {
	srv, st, _ := newServerWithStore(t)
	page := openPage(t, srv)
	_, err := page.GetByRole("banner").GetByRole("combobox", playwright.LocatorGetByRoleOptions{Name: "Task"}).SelectOption(playwright.SelectOptionValues{Values: &[]string{"lab:checkout"}})
	must(t, "choose the checkout lab", err)
	card := page.GetByRole("alertdialog")

	t.Run("price-changed: the re-ask names what changed", func(t *testing.T) {
		start(t, page, "The price changes between observing and paying")
		must(t, "see the first card", card.WaitFor(playwright.LocatorWaitForOptions{Timeout: playwright.Float(runTimeout)}))
		must(t, "see what it does", expect.Locator(card).ToContainText(regexp.MustCompile(`What it doesPay for the cart as alice, 20\.00`)))
		if n, _ := card.Locator(".approval-differs").Count(); n != 0 {
			t.Error("the first card says something is not as the task asked")
		}
		must(t, "approve with y", page.Keyboard().Press("y"))
		again := card.Filter(playwright.LocatorFilterOptions{HasText: "Your earlier approval is void"})
		must(t, "see the re-ask", again.WaitFor(playwright.LocatorWaitForOptions{Timeout: playwright.Float(runTimeout)}))
		must(t, "see the change stated first", expect.Locator(card.Locator(".approval-differs")).ToHaveText(
			"Not as the task asked:the amount was 20.00 when the action was planned; it is now 25.00."))
		must(t, "see why it was voided", expect.Locator(again).ToContainText(`the amount changed from "20.00" to "25.00"`))
		must(t, "approve with y", page.Keyboard().Press("y"))
		expectEnd(t, page, "The price changes between observing and paying", "failed")
		a := stored(t, st, "price-changed")
		if n := a.Steps[1].Approvals; len(n) != 2 || !strings.HasPrefix(n[0].Note, "approved") || !strings.Contains(n[0].Note, "void before the commit") {
			t.Errorf("approvals %+v, want the first approved then void, worded", n)
		}
		// The trace says the same, step 2's decision listing both approvals as they ended.
		must(t, "select the attempt", row(page, "The price changes between observing and paying").Click())
		press(t, page, "Home", "Step 1 of 3: Add the lab notebook to the cart")
		press(t, page, "ArrowRight", "Step 2 of 3: Pay for the cart")
		trace := page.GetByRole("region", playwright.PageGetByRoleOptions{Name: "Trace"})
		must(t, "open the Decision tab", trace.GetByRole("tab", playwright.LocatorGetByRoleOptions{Name: "Decision"}).Click())
		approvals := trace.GetByRole("region", playwright.LocatorGetByRoleOptions{Name: "Approvals"})
		expectContains(t, approvals, `approved in the window`)
		expectContains(t, approvals, `, then void before the commit: the amount changed from "20.00" to "25.00"`)
		expectContains(t, approvals, "not as the task asked: the amount was 20.00 when the action was planned; it is now 25.00")
	})

	t.Run("account-switched: stopped with the reason, no card", func(t *testing.T) {
		start(t, page, "Another tab switches the signed-in account")
		expectEnd(t, page, "Another tab switches the signed-in account", "rejected")
		a := stored(t, st, "account-switched")
		for _, s := range a.Steps {
			if len(s.Approvals) > 0 {
				t.Errorf("step %d asked %+v; want no card", s.Index+1, s.Approvals)
			}
		}
		if !strings.Contains(a.Reason, "the task acts for alice; the signed-in account is bob: authority changes invalidate the plan") {
			t.Errorf("reason %q, want the account change named", a.Reason)
		}
		if ev := a.Verdicts.Truth.Evidence; strings.Contains(ev, "bob") {
			t.Errorf("the orders %q: want none from bob's account", ev)
		}
	})
}

// TestReauthorizationCardInTheWindow: a command-line run of the checkout task that allows
// re-authorization, on the window's data folder, asks the window about paying as bob; the
// card, as rendered, states first that the task acts for alice and the signed-in account is
// bob.
func TestReauthorizationCardInTheWindow(t *testing.T) {
	srv, _, dir := newServerWithStore(t)
	page := openPage(t, srv)
	task := filepath.Join(t.TempDir(), "checkout.yaml")
	doc := string(checkout.TaskFile) + "\nsafeguards:\n  approval: {limit_ms: 60000, reauthorize: true}\n"
	if err := os.WriteFile(task, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := make(chan int, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		code <- cli.Execute(ctx, cli.Env{Stdout: &out, Stderr: &errOut}, []string{"run", task,
			"--attempt", "account-switched", "--approve", "ask", "--json", "--no-video", "--data-dir", dir})
	}()
	card := page.GetByRole("alertdialog")
	must(t, "see the card", card.WaitFor(playwright.LocatorWaitForOptions{Timeout: playwright.Float(runTimeout)}))
	must(t, "see the account change stated first", expect.Locator(card.Locator(".approval-differs")).ToHaveText(
		"Not as the task asked:the task acts for alice; the signed-in account is bob."))
	must(t, "see why it asks", expect.Locator(card).ToContainText("safeguards.approval.reauthorize"))
	text, err := card.TextContent()
	must(t, "read the card", err)
	if strings.Index(text, "Not as the task asked") > strings.Index(text, "stopped at step") {
		t.Errorf("the card %q: want the change before anything else", text)
	}
	must(t, "approve with y", page.Keyboard().Press("y"))
	select {
	case c := <-code:
		if !strings.Contains(out.String(), `"failed"`) {
			t.Errorf("the run exited %d: %s\n%s", c, out.String(), errOut.String())
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the run did not end")
	}
}
