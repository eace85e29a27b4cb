package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/labs/checkout"
)

// yesToEveryCard runs args (a run of one checkout attempt) with a person at a real
// pseudo-terminal who answers yes to every card the moment its question appears. It returns
// the attempt's row, what the terminal showed and the run file exported.
func yesToEveryCard(t *testing.T, args ...string) (row map[string]any, shown string, runFile map[string]any) {
	t.Helper()
	env := sayYes(t)
	export := filepath.Join(t.TempDir(), "run.json")
	row, shown = runRow(t, env, append(args, "--approve", "ask", "--export", export)...)
	return row, shown, exported(t, export)
}

// exported reads the run file at path.
func exported(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]any
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	return file
}

// sayYes is an Env whose standard input is a real pseudo-terminal where a person types y the
// moment each approval question appears on its standard error, until the test ends.
func sayYes(t *testing.T) Env {
	t.Helper()
	ptmx, tty := openTerminal(t)
	errOut := &lockedBuffer{}
	finished := make(chan struct{})
	t.Cleanup(func() { close(finished) })
	go func() {
		for n := 0; ; n++ {
			for strings.Count(errOut.String(), "Approve? [y/n]") <= n {
				select {
				case <-finished:
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
			if _, err := ptmx.Write([]byte("y\n")); err != nil {
				return
			}
		}
	}()
	return Env{Stdin: tty, Stderr: errOut}
}

// runAttempt is the run file's one attempt: its reason, events and every approval asked.
type runAttempt struct {
	Reason string `json:"reason"`
	Events []struct {
		Type string            `json:"type"`
		Data map[string]string `json:"data"`
	} `json:"events"`
	Steps []struct {
		Approvals []struct {
			Answer  string `json:"answer"`
			Note    string `json:"note"`
			Request struct {
				Effect   string `json:"effect"`
				Why      string `json:"why"`
				Compared []struct {
					Field, Asked, Now, Differs string
				} `json:"compared"`
			} `json:"request"`
		} `json:"approvals"`
	} `json:"steps"`
}

// attemptOf reads the one attempt of a run file.
func attemptOf(t *testing.T, file map[string]any) runAttempt {
	t.Helper()
	data, _ := json.Marshal(file["attempts"])
	var as []runAttempt
	if err := json.Unmarshal(data, &as); err != nil || len(as) != 1 {
		t.Fatalf("the run file's attempts (%v): %s", err, data)
	}
	return as[0]
}

// paid lists the orders an attempt placed, from the lab's events: "account amount".
func (a runAttempt) paid() []string {
	var out []string
	for _, e := range a.Events {
		if e.Type == "paid" {
			out = append(out, e.Data["account"]+" "+e.Data["amount"])
		}
	}
	return out
}

// notes are the notes of every approval the attempt asked, in order.
func (a runAttempt) notes() []string {
	var out []string
	for _, s := range a.Steps {
		for _, ap := range s.Approvals {
			out = append(out, ap.Note)
		}
	}
	return out
}

// TestCheckoutYesToEveryCardAtATerminal is a person at a terminal who approves whatever the
// card says. account-switched never places an order from bob's account without a card that
// names alice and bob: by default the attempt stops before asking, with the reason; a task
// that allows re-authorization asks with the change stated first. price-changed's re-ask
// names what changed. Each approval's ending is worded in the run file as it happened.
func TestCheckoutYesToEveryCardAtATerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	t.Run("account-switched stops: authority changes invalidate the plan", func(t *testing.T) {
		row, shown, file := yesToEveryCard(t, "run", "--lab", "checkout", "--attempt", "account-switched")
		a := attemptOf(t, file)
		if row["terminal"] != "rejected" || !strings.Contains(a.Reason, "the task acts for alice; the signed-in account is bob: authority changes invalidate the plan") {
			t.Errorf("%v: %s; want rejected, the account change named", row["terminal"], a.Reason)
		}
		if strings.Contains(shown, "Approval needed") || len(a.paid()) != 0 {
			t.Errorf("want no card and no order; orders %v\n%s", a.paid(), shown)
		}
	})
	t.Run("account-switched with re-authorization: the card names alice and bob first", func(t *testing.T) {
		task := filepath.Join(t.TempDir(), "checkout.yaml")
		doc := string(checkout.TaskFile) + "\nsafeguards:\n  approval: {limit_ms: 60000, reauthorize: true}\n"
		if err := os.WriteFile(task, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		_, shown, file := yesToEveryCard(t, "run", task, "--attempt", "account-switched")
		a := attemptOf(t, file)
		cards := strings.Split(shown, "Approval needed:")
		if len(cards) != 2 || !strings.Contains(cards[1], "NOT AS THE TASK ASKED: the task acts for alice; the signed-in account is bob.") ||
			strings.Index(cards[1], "NOT AS THE TASK ASKED") > strings.Index(cards[1], "effect:") ||
			!strings.Contains(cards[1], "re-authorization (safeguards.approval.reauthorize)") {
			t.Errorf("want one card stating the account change first, and why it is asked:\n%s", shown)
		}
		if got := a.paid(); len(got) != 1 || got[0] != "bob 20.00" {
			t.Errorf("orders %v, want the one order the user approved knowing it is bob's", got)
		}
		if n := a.notes(); len(n) != 1 || n[0] != "approved by you at the terminal" {
			t.Errorf("notes %q, want the approval worded", n)
		}
	})
	t.Run("price-changed: the re-ask names what changed", func(t *testing.T) {
		_, shown, file := yesToEveryCard(t, "run", "--lab", "checkout", "--attempt", "price-changed")
		a := attemptOf(t, file)
		cards := strings.Split(shown, "Approval needed:")
		if len(cards) != 3 || strings.Contains(cards[1], "NOT AS THE TASK ASKED") ||
			!strings.Contains(cards[2], "NOT AS THE TASK ASKED: the amount was 20.00 when the action was planned; it is now 25.00.") ||
			!strings.Contains(cards[2], `Your last approval is void: the amount changed from "20.00" to "25.00".`) {
			t.Errorf("want a first card as asked and a re-ask naming the new amount:\n%s", shown)
		}
		want := []string{`approved by you at the terminal, then void before the commit: the amount changed from "20.00" to "25.00"`, "approved by you at the terminal"}
		if n := a.notes(); strings.Join(n, "|") != strings.Join(want, "|") {
			t.Errorf("notes %q, want %q", n, want)
		}
		last := a.Steps[1].Approvals[1].Request
		if !strings.HasPrefix(last.Effect, "Pay for the cart as alice, 25.00") || last.Why == "" || len(last.Compared) == 0 {
			t.Errorf("the run file's card %+v, want the effect, why and the comparisons", last)
		}
	})
}

// TestHeldWithNobodyToAskIsWorded: with no terminal and no window, the checkout's payment is
// held at once, and the reason and the run file say so.
func TestHeldWithNobodyToAskIsWorded(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	export := filepath.Join(t.TempDir(), "run.json")
	runRow(t, Env{}, "run", "--lab", "checkout", "--attempt", "pays-normally", "--export", export)
	file := exported(t, export)
	a := attemptOf(t, file)
	const words = "held: nobody to ask (no terminal, no window open)"
	if !strings.Contains(a.Reason, "approval "+words) || strings.Join(a.notes(), "|") != words || len(a.paid()) != 0 {
		t.Errorf("reason %q, notes %q, orders %v; want %q in both and no order", a.Reason, a.notes(), a.paid(), words)
	}
}

// heldPay runs the Puppeteer agent that pays in the checkout lab, on attempt of a task that
// names its payment as a mutation, with a person at a terminal who says yes to every card. It
// returns the attempt's row, the approvals of its held POST /api/pay, those of requests the
// task does not name, what the terminal showed and the run file.
func heldPay(t *testing.T, attempt string, reauthorize bool) (row jsonRow, pay, unknown []agent.Approval, shown, file string) {
	t.Helper()
	task := filepath.Join("..", "..", "backend", "outside", "testdata", "checkout-mutation.yaml")
	if reauthorize {
		doc, err := os.ReadFile(task)
		if err != nil {
			t.Fatal(err)
		}
		task = filepath.Join(t.TempDir(), "checkout-reauthorize.yaml")
		doc = []byte(strings.Replace(string(doc), "limit_ms: 20000", "limit_ms: 20000\n    reauthorize: true", 1))
		if err := os.WriteFile(task, doc, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	rows, file, shown := runAgentOn(t, sayYes(t), task, t.TempDir(), "puppeteer-pay.js", "", []string{attempt}, "--approve", "ask")
	for _, s := range attemptSteps(t, file) {
		for _, a := range s.Approvals {
			switch {
			case strings.HasSuffix(a.Request.URL, "/api/pay"):
				pay = append(pay, a)
			case strings.HasPrefix(a.Request.Effect, agent.Unknown):
				unknown = append(unknown, a)
			}
		}
	}
	if len(pay) != 1 {
		t.Fatalf("%d held payments recorded, want 1\n%s", len(pay), shown)
	}
	return rows[0], pay, unknown, shown, file
}

// TestOutsideAgentsHeldPayInTheTasksTerms: a Puppeteer agent pays in the checkout lab under a
// task that names its payment as a mutation. Its POST /api/pay, held at the network, is asked
// at a terminal (answered yes) as the task's "Pay for the cart" as alice at 20.00, compared
// with what the task asked; a request the task does not name (the page's own event log) says
// plainly that Observatory cannot tell what it does. When another tab switched the account,
// the card names alice and bob before anything is paid from bob's account.
func TestOutsideAgentsHeldPayInTheTasksTerms(t *testing.T) {
	needAgents(t)
	t.Run("as asked", func(t *testing.T) {
		r, pay, unknown, shown, file := heldPay(t, "pays-normally", false)
		if !r.Gate || r.Terminal != agent.Completed {
			t.Errorf("gate %v, %s (%s): want the approved payment done\n%s", r.Gate, r.Terminal, r.Reason, shown)
		}
		q := pay[0].Request
		if q.Action != "Pay for the cart" || q.Amount != "20.00" || q.Principal != "alice" || !strings.HasPrefix(q.Effect, "Pay for the cart as alice, 20.00") ||
			len(q.Differences()) != 0 || !strings.Contains(q.Why, "safeguards.approval") || pay[0].Note != "approved by you at the terminal" {
			t.Errorf("the held payment's card %+v (%q), want it in the task's terms, as asked", q, pay[0].Note)
		}
		compared := map[string]string{}
		for _, c := range q.Compared {
			compared[c.Field] = c.Asked + "=" + c.Now
		}
		if compared["principal"] != "alice=alice" || compared["amount"] != "20.00=20.00" {
			t.Errorf("compared %v, want the account and the amount compared with the task's", compared)
		}
		if !strings.Contains(shown, "effect:       Pay for the cart as alice, 20.00") || !strings.Contains(shown, "as asked:     principal alice, amount 20.00") {
			t.Errorf("the terminal's card does not say it in the task's terms:\n%s", shown)
		}
		if len(unknown) == 0 || !strings.Contains(shown, agent.Unknown) {
			t.Errorf("no card says plainly that Observatory cannot tell what a request does:\n%s", shown)
		}
		if code, _, out := run(t, "verify", file); code != 0 {
			t.Errorf("the run file does not verify: %s", out)
		}
	})
	t.Run("another account: refused without asking", func(t *testing.T) {
		_, pay, _, shown, file := heldPay(t, "account-switched", false)
		const words = "held: the task acts for alice; the signed-in account is bob: authority changes invalidate the plan"
		if pay[0].Answer != agent.AnswerNone || !strings.HasPrefix(pay[0].Note, words) || strings.Contains(shown, "/api/pay") {
			t.Errorf("the held payment %+v, want it refused with %q, never asked\n%s", pay[0], words, shown)
		}
		if ev := eventsOf(t, file, "paid"); len(ev) != 0 {
			t.Errorf("orders %v, want none", ev)
		}
	})
	t.Run("another account, re-authorization allowed: the card names alice and bob", func(t *testing.T) {
		r, pay, _, shown, _ := heldPay(t, "account-switched", true)
		q := pay[0].Request
		if q.Principal != "bob" || strings.Join(q.Differences(), "|") != "the task acts for alice; the signed-in account is bob" ||
			!strings.Contains(shown, "NOT AS THE TASK ASKED: the task acts for alice; the signed-in account is bob.") {
			t.Errorf("the held payment's card %+v, want alice and bob named\n%s", q, shown)
		}
		if r.Gate {
			t.Errorf("the gate holds for bob's order (%s)", r.Reason)
		}
	})
}

// eventsOf are the data of the lab's events of type kind in the run file at path.
func eventsOf(t *testing.T, path, kind string) []map[string]string {
	t.Helper()
	var out []map[string]string
	for _, e := range attemptOf(t, exported(t, path)).Events {
		if e.Type == kind {
			out = append(out, e.Data)
		}
	}
	return out
}
