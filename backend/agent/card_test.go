package agent_test

import (
	"strings"
	"testing"

	"observatory/backend/agent"
)

func shopPage(account, price string) agent.Sample {
	return agent.Sample{URL: "http://shop.test/checkout", Principal: account,
		Facts: []agent.Fact{{ID: "price", Value: price}, {ID: "total", Value: price}}}
}

// TestCardComparesWithWhatTheTaskAsked: each field of the card is compared with what the
// task asked, and every difference is named in the user's words.
func TestCardComparesWithWhatTheTaskAsked(t *testing.T) {
	pay := agent.Action{Description: "Pay for the cart", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: "Pay"}}
	asked := agent.DescribeApproval(1, pay, agent.ClassCommit, shopPage("alice", "20.00"))
	tests := []struct {
		name  string
		page  agent.Sample
		diffs []string
	}{
		{"as asked", shopPage("alice", "20.00"), nil},
		{"another account", shopPage("bob", "20.00"), []string{"the task acts for alice; the signed-in account is bob"}},
		{"signed out", shopPage("", "20.00"), []string{"the task acts for alice; the signed-in account is nobody (signed out)"}},
		{"a new price", shopPage("alice", "25.00"), []string{"the amount was 20.00 when the action was planned; it is now 25.00"}},
	}
	for _, tt := range tests {
		q := agent.DescribeApproval(1, pay, agent.ClassCommit, tt.page)
		hash := q.Hash
		q.Compare("alice", asked, agent.BasisPlanned)
		if got := q.Differences(); strings.Join(got, "|") != strings.Join(tt.diffs, "|") {
			t.Errorf("%s: differences %q, want %q", tt.name, got, tt.diffs)
		}
		if q.PrincipalChanged() != (tt.page.Principal != "alice") {
			t.Errorf("%s: principal changed %v", tt.name, q.PrincipalChanged())
		}
		if q.Hash != hash || q.DetailsHash() != hash {
			t.Errorf("%s: the comparison changed the details approved", tt.name)
		}
		if !strings.HasPrefix(q.Effect, "Pay for the cart as "+tt.page.Principal) && tt.page.Principal != "" {
			t.Errorf("%s: effect %q", tt.name, q.Effect)
		}
		if len(q.Compared) < 2 || q.Compared[0].Field != agent.FieldPrincipal || q.Compared[0].Asked != "alice" {
			t.Errorf("%s: compared %+v, want the principal first", tt.name, q.Compared)
		}
	}
}

// TestEndedSaysWhatHappened: the words for each way an approval ends, with who answered when
// the approver says it and without.
func TestEndedSaysWhatHappened(t *testing.T) {
	tests := []struct {
		answer   agent.ApprovalAnswer
		by, note string
		want     string
	}{
		{agent.AnswerApprove, "window (desktop)", "", "approved in the window (desktop)"},
		{agent.AnswerApprove, "window", "", "approved in the window"},
		{agent.AnswerDeny, "terminal", "", "denied by you at the terminal"},
		{agent.AnswerDeny, "", "", "denied by the user"},
		{agent.AnswerNone, "", agent.ErrNobodyToAsk.Why, "held: nobody to ask (no terminal, no window open)"},
		{agent.AnswerNone, "", "no answer within 60 s", "held: no answer within 60 s"},
	}
	for _, tt := range tests {
		if got := agent.Ended(tt.answer, tt.by, tt.note); got != tt.want {
			t.Errorf("Ended(%s, %q, %q) = %q, want %q", tt.answer, tt.by, tt.note, got, tt.want)
		}
	}
}

// TestHeldRequestInTheTasksTerms: a held request the task names as a mutation is described
// by it, with the amount and the account its body carries compared with the task's; one it
// does not name says plainly that Observatory cannot tell what it does.
func TestHeldRequestInTheTasksTerms(t *testing.T) {
	order := agent.Mutation{Method: "POST", Path: "/api/orders", Description: "Place an order", Amount: "amount", Principal: "account"}
	page := shopPage("alice", "20.00")
	q := agent.DescribeHeld(agent.HeldRequest{Method: "POST", URL: "http://shop.test/api/orders", Origin: "http://shop.test",
		Body: `{"account":"bob","product":"p-100","amount":"20.00"}`}, []agent.Mutation{order}, "alice", page)
	if q.Action != "Place an order" || q.Amount != "20.00" || q.Principal != "bob" || q.Hash == "" {
		t.Errorf("request %+v, want the order as bob at 20.00", q)
	}
	if d := q.Differences(); len(d) != 1 || d[0] != "the task acts for alice; the signed-in account is bob" {
		t.Errorf("differences %q, want the account named", d)
	}
	form := agent.DescribeHeld(agent.HeldRequest{Method: "post", URL: "http://shop.test/api/orders?x=1", Origin: "http://shop.test",
		Body: "account=alice&amount=25.00"}, []agent.Mutation{order}, "alice", page)
	if d := form.Differences(); len(d) != 1 || d[0] != "the amount was 20.00 on the page; it is now 25.00" {
		t.Errorf("differences %q, want the amount named", d)
	}
	other := agent.DescribeHeld(agent.HeldRequest{Method: "POST", URL: "http://shop.test/api/telemetry", Origin: "http://shop.test", Body: "{}"},
		[]agent.Mutation{order}, "alice", page)
	if !strings.HasPrefix(other.Effect, agent.Unknown) || other.Action != "POST http://shop.test/api/telemetry" {
		t.Errorf("unnamed request %+v, want it said plainly that Observatory cannot tell", other)
	}
}
