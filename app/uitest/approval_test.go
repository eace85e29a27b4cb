package uitest

import (
	"slices"
	"strings"
	"testing"

	"github.com/mxschmitt/playwright-go"

	"observatory/backend/agent"
	"observatory/backend/store"
)

// outboxTerminal is the terminal column of the outbox lab's table: sent as asked, the sent
// notice, the gate, then the terminal state.
const outboxTerminal = 3

// TestApprovalCard runs the outbox lab's approval attempts from the window and answers their
// approval cards with the keyboard, as a user would: one approved (it sends), one approved
// and then, asked again because the page changed the recipient, denied (nothing sent), and
// one left unanswered (held, nothing sent). The lab gives the user a minute to answer the
// first two and one second the third, whose card is read in the page as soon as it shows.
func TestApprovalCard(t *testing.T) {
	srv, st, _ := newServerWithStore(t)
	page := openPage(t, srv)
	_, err := page.GetByRole("banner").GetByRole("combobox", playwright.LocatorGetByRoleOptions{Name: "Task"}).SelectOption(playwright.SelectOptionValues{Values: &[]string{"lab:outbox"}})
	must(t, "choose the outbox lab", err)
	card := page.GetByRole("alertdialog")
	// axe-core is loaded before any card opens: the card lives only as long as the lab's limit.
	_, err = page.AddScriptTag(playwright.PageAddScriptTagOptions{Path: playwright.String(axePath)})
	must(t, "inject axe-core", err)

	t.Run("approved, it sends", func(t *testing.T) {
		start(t, page, "The user denies the send")
		expectCard(t, card, "alice@example.com")
		marked := markOnShot(t, card)
		axeCard(t, page)
		must(t, "approve with y", page.Keyboard().Press("y"))
		expectEnd(t, page, "The user denies the send", "completed")
		a := stored(t, st, "approval-denied")
		expectMarkAt(t, marked, a.Steps[3].Approvals)
		expectSent(t, a, "1 message sent: #1 to alice@example.com")
		expectAnswers(t, a, agent.AnswerApprove)
	})

	t.Run("approved, the recipient changes, asked again and denied", func(t *testing.T) {
		start(t, page, "The page changes the recipient after approval")
		expectCard(t, card, "alice@example.com")
		must(t, "approve with Enter", page.Keyboard().Press("Enter"))
		again := card.Filter(playwright.LocatorFilterOptions{HasText: "Your earlier approval is void"})
		must(t, "see the approval voided", again.WaitFor())
		must(t, "see why", expect.Locator(again).ToContainText(
			`Your earlier approval is void: the recipient changed from "alice@example.com" to "`))
		must(t, "see the focus on the card again", expect.Locator(again).ToBeFocused())
		must(t, "deny with Escape", page.Keyboard().Press("Escape"))
		expectEnd(t, page, "The page changes the recipient after approval", "rejected")
		a := stored(t, st, "recipient-changed-after-approval")
		expectSent(t, a, "no message was sent")
		expectAnswers(t, a, agent.AnswerApprove, agent.AnswerDeny)
	})

	t.Run("unanswered, it is held", func(t *testing.T) {
		start(t, page, "The user does not answer in time")
		if name, text := shownCard(t, page); name != "Approve “Send the message”?" || !strings.Contains(text, "Recipientalice@example.com") {
			t.Errorf("the card read %q: %q; want the send to alice@example.com asked", name, text)
		}
		must(t, "see the card close at the limit", expect.Locator(card).ToBeHidden())
		expectEnd(t, page, "The user does not answer in time", "rejected")
		a := stored(t, st, "approval-timeout")
		expectSent(t, a, "no message was sent")
		expectAnswers(t, a, agent.AnswerNone)
		if !strings.Contains(a.Reason, "approval held: no answer within 1 s") {
			t.Errorf("reason %q: want approval held: no answer within 1 s", a.Reason)
		}
	})
	t.Run("with the harness off, nothing asks and it sends", func(t *testing.T) {
		must(t, "open the settings", button(page, "Settings").Click())
		_, err := page.GetByLabel("Harness").SelectOption(playwright.SelectOptionValues{Values: &[]string{"off"}})
		must(t, "turn the harness off", err)
		must(t, "save", button(page, "Save").Click())
		must(t, "close the settings", button(page, "Settings").Click())
		start(t, page, "The user denies the send")
		expectEnd(t, page, "The user denies the send", "completed")
		must(t, "see no card", expect.Locator(card).ToHaveCount(0))
		a := stored(t, st, "approval-denied")
		expectSent(t, a, "1 message sent: #1 to alice@example.com")
		expectAnswers(t, a)
		if send := a.Steps[3]; send.Decision.AskUser || !strings.Contains(send.Decision.Reason, "the harness is off") {
			t.Errorf("the send's decision %+v: want it admitted by the harness being off, nobody asked", send.Decision)
		}
	})
	checkA11y(t, page, "the outbox lab after its approval attempts")
}

// markOnShot is where the card's target mark lies over the screenshot it marks, as
// fractions of the image: left, top, width, height. It is read in the page, frame by frame,
// as soon as the mark is drawn (once the screenshot has loaded), frame by frame.
func markOnShot(t *testing.T, card playwright.Locator) [4]float64 {
	t.Helper()
	out, err := card.Evaluate(`async (card) => {
		for (let frame = 0; frame < 1200 && card.isConnected; frame++) {
			const mark = card.querySelector('[data-testid="target-box"]');
			const img = card.querySelector('img[alt="The page as it was when this was asked"]');
			if (mark && img && mark.textContent === "this control") {
				const m = mark.getBoundingClientRect(), s = img.getBoundingClientRect();
				return [(m.x - s.x) / s.width, (m.y - s.y) / s.height, m.width / s.width, m.height / s.height];
			}
			await new Promise((r) => requestAnimationFrame(r));
		}
		return null;
	}`, nil)
	must(t, "read the mark on the card's screenshot", err)
	got, ok := out.([]any)
	if !ok || len(got) != 4 {
		t.Fatalf("the card closed without marking the control on its screenshot (%v)", out)
	}
	var mark [4]float64
	for i, v := range got {
		switch n := v.(type) {
		case float64:
			mark[i] = n
		case int:
			mark[i] = float64(n)
		default:
			t.Fatalf("the mark's place %v is not numbers", got)
		}
	}
	return mark
}

// expectMarkAt checks that the mark lay where the recorded request's box puts the control:
// its place over the viewport, within a pixel or two of the drawn screenshot.
func expectMarkAt(t *testing.T, mark [4]float64, approvals []agent.Approval) {
	t.Helper()
	if len(approvals) == 0 || approvals[0].Request.TargetBox == nil {
		t.Fatalf("the send's approval records no target box: %+v", approvals)
	}
	b := approvals[0].Request.TargetBox
	want := [4]float64{b.X / b.ViewportWidth, b.Y / b.ViewportHeight, b.Width / b.ViewportWidth, b.Height / b.ViewportHeight}
	for i := range want {
		if d := mark[i] - want[i]; d > 0.01 || d < -0.01 || mark[2] <= 0 || mark[3] <= 0 {
			t.Errorf("the mark lies at %v of the screenshot, the recorded box at %v", mark, want)
			return
		}
	}
}

// start clicks the ▶ of the attempt titled title.
func start(t *testing.T, page playwright.Page, title string) {
	t.Helper()
	must(t, "click ▶ of "+title, button(page, "Run "+title).Click())
}

// expectCard waits for the approval card, focused, asking to send to recipient.
func expectCard(t *testing.T, card playwright.Locator, recipient string) {
	t.Helper()
	must(t, "see the approval card", card.WaitFor(playwright.LocatorWaitForOptions{Timeout: playwright.Float(runTimeout)}))
	must(t, "see what it asks", expect.Locator(card).ToHaveAccessibleName("Approve “Send the message”?"))
	must(t, "see the card take the focus", expect.Locator(card).ToBeFocused())
	must(t, "see the recipient", expect.Locator(card).ToContainText("Recipient"+recipient))
}

// shownCard waits in the page, frame by frame, for the approval card to show with the focus,
// and returns its accessible name and its text as it was then: polling from here could miss a
// card that lives one second.
func shownCard(t *testing.T, page playwright.Page) (string, string) {
	t.Helper()
	out, err := page.Evaluate(`async (limit) => {
		for (const end = performance.now() + limit; performance.now() < end; ) {
			const card = document.querySelector('[role="alertdialog"]');
			if (card && document.activeElement === card) {
				const name = (card.getAttribute("aria-labelledby") ?? "").split(" ").map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
				return [name.trim(), card.textContent];
			}
			await new Promise((r) => requestAnimationFrame(r));
		}
		return null;
	}`, runTimeout)
	must(t, "wait for the approval card", err)
	got, ok := out.([]any)
	if !ok || len(got) != 2 {
		t.Fatalf("no approval card took the focus within %d ms", runTimeout)
	}
	name, _ := got[0].(string)
	text, _ := got[1].(string)
	return name, text
}

// expectEnd waits until the attempt's row shows its terminal state.
func expectEnd(t *testing.T, page playwright.Page, title, terminal string) {
	t.Helper()
	must(t, title+" ends "+terminal, expect.Locator(cell(row(page, title), outboxTerminal)).ToHaveText(terminal,
		playwright.LocatorAssertionsToHaveTextOptions{Timeout: playwright.Float(runTimeout)}))
}

// stored is the attempt slug of the newest stored run.
func stored(t *testing.T, st *store.Store, slug string) agent.Attempt {
	t.Helper()
	runs, err := st.List()
	must(t, "list the runs", err)
	if len(runs) == 0 {
		t.Fatal("no run stored")
	}
	run, err := st.Get(runs[0].ID)
	must(t, "read run "+runs[0].ID, err)
	for _, a := range run.Attempts {
		if a.Slug == slug {
			return a
		}
	}
	t.Fatalf("run %s has no attempt %s", run.ID, slug)
	return agent.Attempt{}
}

// expectSent checks what the lab's store holds, as the ground truth's evidence says it.
func expectSent(t *testing.T, a agent.Attempt, sent string) {
	t.Helper()
	if ev := a.Verdicts.Truth.Evidence; !strings.HasPrefix(ev, sent) {
		t.Errorf("%s: the store says %q, want %q", a.Slug, ev, sent)
	}
}

// expectAnswers checks the answers recorded in the attempt's steps, in order.
func expectAnswers(t *testing.T, a agent.Attempt, want ...agent.ApprovalAnswer) {
	t.Helper()
	var got []agent.ApprovalAnswer
	for _, s := range a.Steps {
		for _, ap := range s.Approvals {
			got = append(got, ap.Answer)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: recorded answers %v, want %v", a.Slug, got, want)
	}
}

// axeCard runs axe-core, already injected, on the whole page while the approval card is
// open, and fails the test on any violation.
func axeCard(t *testing.T, page playwright.Page) {
	t.Helper()
	out, err := page.Evaluate(`async () => {
		const r = await axe.run(document, { resultTypes: ["violations"] });
		return r.violations.map(v => v.id + " (" + v.help + ") at " + v.nodes.map(n => n.target.join(" ")).join(", "));
	}`)
	must(t, "run axe-core with the card open", err)
	for _, v := range out.([]any) {
		t.Errorf("the open approval card: axe-core %s", v)
	}
}
