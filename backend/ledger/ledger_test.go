package ledger

import (
	"bytes"
	"encoding/csv"
	"reflect"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// checkoutAttempt is a price-changed checkout as the harness records it: the cart filled, the
// payment approved, voided by the new price, asked again and denied on the terminal while the
// agent's own answer was refused.
func checkoutAttempt() agent.Attempt {
	seen := func(at int64) *agent.Fingerprint {
		return &agent.Fingerprint{Route: "http://shop/", Principal: "alice", AtMS: at, Hash: "fp" + strings.Repeat("0", int(at%3))}
	}
	add := agent.Step{Index: 0, Action: agent.Action{Description: "Add to cart", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Add to cart"}},
		Resolved: "Add to cart", Before: agent.Sample{AtMS: 10, Principal: "alice"},
		Decision: agent.Decision{Class: agent.ClassPrepare, Admission: agent.Allow, Reason: "prepare action within budget", Fingerprint: "fp0", Observed: seen(10)}}
	pay := agent.Step{Index: 1, Action: agent.Action{Description: "Pay for the cart", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Pay"}},
		Before:   agent.Sample{AtMS: 40, Principal: "alice"},
		Decision: agent.Decision{Class: agent.ClassCommit, Risk: agent.RiskHigh, Admission: agent.Allow, Reason: "high-risk commit", AskUser: true, Fingerprint: "fp1", Observed: seen(40)},
		Approvals: []agent.Approval{
			{Request: agent.ApprovalRequest{Principal: "alice", Amount: "20.00"}, Answer: agent.AnswerApprove, Void: true, Note: `void before the commit: the amount changed from "20.00" to "25.00"`},
			{Request: agent.ApprovalRequest{Principal: "alice", Amount: "25.00"}, Answer: agent.AnswerDeny, By: "terminal",
				Refused: []agent.RefusedAnswer{{By: "pid 4300 (node agent.js)", AtMS: 52, Why: "it tried to answer the run's approvals"}}},
		}, Error: "approval denied"}
	return agent.Attempt{Slug: "price-changed", Steps: []agent.Step{add, pay},
		Verdicts: agent.Verdicts{Gate: agent.NewGate([]agent.Condition{{ID: "ordered", Label: "The order is there", Verdict: agent.Verdict{Evidence: "no order"}}})}}
}

func TestLedgerOfAnAttempt(t *testing.T) {
	got := Of(checkoutAttempt())
	want := []Entry{
		{Step: 1, Intent: "Add to cart", Action: "click", Target: "button[Add to cart] → Add to cart", Principal: "alice", ObservedMS: 10,
			Fingerprint: "fp0", Class: "prepare", Decision: "allow", Reason: "prepare action within budget", Result: "done"},
		{Step: 2, Intent: "Pay for the cart", Action: "click", Target: "button[Pay]", Principal: "alice", ObservedMS: 40,
			Fingerprint: "fp1", Class: "commit", Risk: "high", Decision: "allow", Reason: "high-risk commit", Result: "not run: approval denied by you at the terminal",
			Verification: `approval approved by the user, then void before the commit: the amount changed from "20.00" to "25.00" (as "alice", amount "20.00"); approval denied by you at the terminal (as "alice", amount "25.00"); ` +
				`self-approval refused: pid 4300 (node agent.js) at 52 ms (it tried to answer the run's approvals)`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ledger\n got %+v\nwant %+v", got, want)
	}

	held := agent.Step{Action: agent.Action{Description: "Pay", Kind: agent.ActClick}, Decision: agent.Decision{Admission: agent.Hold, Reason: "the account changed"}}
	verify := agent.Step{Index: 1, Action: agent.Action{Description: "Verify", Kind: agent.ActVerify}, Decision: agent.Decision{Admission: agent.Allow}}
	more := Of(agent.Attempt{Steps: []agent.Step{held, verify}, Verdicts: checkoutAttempt().Verdicts, Terminal: agent.Failed})
	if more[0].Result != "not run: hold" || more[1].Result != "the attempt ended failed" ||
		more[1].Verification != "completion gate not done: The order is there (no order)" {
		t.Errorf("a held step and a verify: %+v", more)
	}
}

func TestLedgerCSV(t *testing.T) {
	entries := Of(checkoutAttempt())
	entries[0].Intent = `=HYPERLINK("http://evil/")` // page text may reach a cell
	var b bytes.Buffer
	if err := WriteCSV(&b, entries); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || !reflect.DeepEqual(rows[0], Header) || len(rows[2]) != len(Header) {
		t.Fatalf("rows %q: want the header and two rows of %d cells", rows, len(Header))
	}
	if rows[1][1] != `'=HYPERLINK("http://evil/")` || rows[2][4] != "alice" || rows[2][5] != "40" || rows[2][11] != "not run: approval denied by you at the terminal" ||
		!strings.Contains(rows[2][12], "approval denied by you at the terminal") {
		t.Errorf("cells %q", rows[1:])
	}
}
