package uitest

import (
	"encoding/csv"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/ledger"
)

// TestCheckoutLedger runs the checkout lab's pays-normally attempt from the window, approves
// the payment on its card (which names the account and the amount), then reads the attempt's
// action ledger in the trace's Ledger tab and exports it as CSV: a row per step, the payment
// decided as alice on a high-risk fingerprint. axe-core checks the tab.
func TestCheckoutLedger(t *testing.T) {
	srv := newServer(t)
	page := openPage(t, srv)
	_, err := page.GetByRole("banner").GetByRole("combobox", playwright.LocatorGetByRoleOptions{Name: "Task"}).SelectOption(playwright.SelectOptionValues{Values: &[]string{"lab:checkout"}})
	must(t, "choose the checkout lab", err)

	start(t, page, "Pays normally")
	card := page.GetByRole("alertdialog")
	must(t, "see the approval card", card.WaitFor(playwright.LocatorWaitForOptions{Timeout: playwright.Float(runTimeout)}))
	// One look, then the answer (the lab gives the user a minute).
	must(t, "see who pays and how much", expect.Locator(card).ToContainText(regexp.MustCompile(`Signed in asalice(?s:.*)Amount20\.00`)))
	must(t, "approve with y", page.Keyboard().Press("y"))
	expectEnd(t, page, "Pays normally", "completed")

	must(t, "select the attempt", row(page, "Pays normally").Click())
	must(t, "open the Ledger tab", page.GetByRole("tab", playwright.PageGetByRoleOptions{Name: "Ledger"}).Click())
	table := page.GetByRole("table", playwright.PageGetByRoleOptions{Name: "Action ledger"})
	rows := table.GetByRole("row")
	must(t, "see a row per step", expect.Locator(rows).ToHaveCount(4))
	pay := rows.Nth(2)
	expectContains(t, pay, "Pay for the cart")
	expectContains(t, pay, "alice")
	expectContains(t, pay, "commit · high risk · allow")
	expectContains(t, pay, "approval approve")
	checkA11y(t, page, "the Ledger tab")

	path := download(t, page, func() error { return button(page, "Export CSV").Click() })
	f, err := os.Open(path)
	must(t, "open the exported ledger", err)
	defer f.Close()
	got, err := csv.NewReader(f).ReadAll()
	must(t, "read the exported ledger as CSV", err)
	if len(got) != 4 || strings.Join(got[0], ",") != strings.Join(ledger.Header, ",") || got[2][4] != "alice" || got[2][8] != "high" {
		t.Errorf("the exported ledger %q: want the header, then 3 steps with the payment as alice at high risk", got)
	}
}
