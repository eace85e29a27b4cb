package uitest

import (
	"testing"

	"github.com/mxschmitt/playwright-go"
)

// TestAFailedAttemptOpensWhereItWentWrong opens, at 1280×720, a run of the booking lab's first
// three attempts (a run shows only the attempts it ran) on "Notice shown, nothing saved",
// selects the attempt above it and then it again, as a user opening it would: its trace opens on
// its last step, where the gate was judged, with why it ended in full (wrapped, never cut);
// the attempts table folds to the selected attempt's row, whole, and A unfolds it to three
// rows or more; at 1920×1080 nothing folds; the window never scrolls.
func TestAFailedAttemptOpensWhereItWentWrong(t *testing.T) {
	srv, st, dir := newServerWithStore(t)
	commandLine(t, st, dir, "run", "--lab", "booking", "--attempt", "saves-normally", "--attempt", "notice-nothing-saved", "--attempt", "wrong-room")
	page := openPage(t, srv)
	resize(t, page, 1280, 720)
	must(t, "open the failed attempt", row(page, "Notice shown, nothing saved").Click())
	expectText(t, page.GetByTestId("step-heading"), headings[4])
	// Folded, the table shows the selected row alone: ↑/↓ move as ever.
	must(t, "select the attempt above", page.Keyboard().Press("ArrowUp"))
	must(t, "it is selected", expect.Locator(row(page, "Saves normally")).ToHaveAttribute("aria-current", "true"))
	must(t, "select the failed one again", page.Keyboard().Press("ArrowDown"))
	expectText(t, page.GetByTestId("step-heading"), headings[4])

	ended := page.GetByTestId("ended")
	expectContains(t, ended, "the notice \"Reservation saved\" is shown but the save committed no record")
	cut, err := ended.Evaluate(`e => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight || getComputedStyle(e).textOverflow === "ellipsis"`, nil)
	must(t, "measure the reason", err)
	if cut != false {
		t.Error("why the attempt ended is cut")
	}

	must(t, "the table is folded", expect.Locator(button(page, "All attempts (A)")).ToHaveAttribute("aria-expanded", "false"))
	if in := rowsInView(t, page, true); len(in) != 1 || in[0] != "Notice shown, nothing saved" {
		t.Errorf("the folded table shows the rows %q, want the selected one whole", in)
	}
	noScroll(t, page)
	must(t, "see the gate", expect.Locator(page.GetByRole("tab", playwright.PageGetByRoleOptions{Name: "Gate"})).ToHaveAttribute("aria-selected", "true"))
	snap(t, page, "failed-attempt")

	must(t, "press A", page.Keyboard().Press("a"))
	must(t, "the table unfolds", expect.Locator(button(page, "Fold to this attempt (A)")).ToHaveAttribute("aria-expanded", "true"))
	// Rows with their results (why each ended, on two lines) are taller than three fit whole:
	// the selected one is whole, the ones either side of it in sight.
	if in := rowsInView(t, page, false); len(in) < 3 {
		t.Errorf("the unfolded table shows the rows %q, want 3 or more", in)
	}
	noScroll(t, page)
	must(t, "↓ moves on", page.Keyboard().Press("ArrowDown"))
	must(t, "the next attempt is selected", expect.Locator(row(page, "South lab, wrong room")).ToHaveAttribute("aria-current", "true"))

	// At 1920×1080 there is room for both: nothing folds.
	must(t, "↑ back to the failed one", page.Keyboard().Press("ArrowUp"))
	resize(t, page, 1920, 1080)
	must(t, "no fold is offered", expect.Locator(page.GetByRole("button", playwright.PageGetByRoleOptions{Name: "(A)"})).ToHaveCount(0))
	if in := rowsInView(t, page, true); len(in) < 3 {
		t.Errorf("at 1920×1080 the table shows the rows %q, want 3 or more", in)
	}
	noScroll(t, page)
	snap(t, page, "failed-attempt-1080")
}

// rowsInView names the attempts table's rows in view in its scrolled area: wholly, or with
// whole false at least a third of a row's height.
func rowsInView(t *testing.T, page playwright.Page, whole bool) []string {
	t.Helper()
	got, err := page.Evaluate(`(whole) => {
		const box = document.querySelector(".attempts-panel .scroll").getBoundingClientRect();
		return [...document.querySelectorAll("table.attempts tbody tr")].filter((r) => {
			const b = r.getBoundingClientRect();
			const seen = Math.min(b.bottom, box.bottom) - Math.max(b.top, box.top);
			return b.height > 0 && (whole ? b.top >= box.top - 1 && b.bottom <= box.bottom + 1 : seen >= b.height / 3);
		}).map((r) => r.querySelector("th, td").textContent.trim());
	}`, whole)
	must(t, "list the rows in view", err)
	var names []string
	for _, n := range got.([]any) {
		names = append(names, n.(string))
	}
	return names
}

// noScroll fails t when the window scrolls either way.
func noScroll(t *testing.T, page playwright.Page) {
	t.Helper()
	overflow, err := page.Evaluate(`() => { const d = document.documentElement; return [d.scrollWidth - d.clientWidth, d.scrollHeight - d.clientHeight]; }`)
	must(t, "measure the page", err)
	if o := overflow.([]any); o[0].(int) > 0 || o[1].(int) > 0 {
		t.Errorf("the page scrolls by %v px (x, y)", o)
	}
}
