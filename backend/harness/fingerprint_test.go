package harness

import (
	"slices"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// shop is a checkout page as the task's authority reads it.
func shop(principal, price, banner string, at int64) agent.Sample {
	return agent.Sample{AtMS: at, URL: "http://shop/#cart", Principal: principal, Version: "v3", Text: banner,
		Facts: []agent.Fact{{ID: "price", Value: price}}, Pairs: []agent.RoleName{{Role: "banner", Name: banner}}}
}

func withVersion(s agent.Sample, v string) agent.Sample { s.Version = v; return s }

func withURL(s agent.Sample, u string) agent.Sample { s.URL = u; return s }

func TestAdmitComparesByRisk(t *testing.T) {
	pay := click("button", "Pay")            // high risk: it pays
	save := click("button", "Save settings") // low risk
	del := click("button", "Delete order")   // a destruct: high risk
	read := agent.Action{Kind: agent.ActHover, Target: agent.Target{Role: "button", Name: "Pay"}}
	planned := shop("alice", "20.00", "", 100)
	history := []agent.Step{{Before: planned, After: planned}}
	approval := &agent.Safeguards{Approval: &agent.ApprovalSpec{LimitMS: 1000}}
	reauthorize := &agent.Safeguards{Approval: &agent.ApprovalSpec{LimitMS: 1000, Reauthorize: true}}
	tests := []struct {
		name      string
		a         agent.Action
		fresh     agent.Sample
		guard     *agent.Safeguards
		want      agent.Admission
		reasonHas string
	}{
		{"high-risk commit on an unchanged page", pay, shop("alice", "20.00", "", 200), nil, agent.Allow, "high-risk commit"},
		{"a banner and a timestamp never stop a commit", pay, shop("alice", "20.00", "Spring sale! 12:00:03", 200), nil, agent.Allow, "still matches"},
		{"a banner does not stop a low-risk commit", save, shop("alice", "20.00", "Spring sale!", 200), nil, agent.Allow, "low-risk commit"},
		{"a price change stops a high-risk commit", pay, shop("alice", "25.00", "", 200), nil, agent.Hold, `the price changed from "20.00" to "25.00"`},
		{"a price change stops a destruct", del, shop("alice", "25.00", "", 200), nil, agent.Hold, "price changed"},
		{"a price change does not stop a low-risk commit", save, shop("alice", "25.00", "", 200), nil, agent.Allow, "low-risk commit"},
		{"a principal change stops a low-risk commit", save, shop("bob", "20.00", "", 200), nil, agent.Hold, `from "alice" to "bob"`},
		{"a principal change stops a high-risk commit", pay, shop("bob", "20.00", "", 200), nil, agent.Hold, "authority changes invalidate the plan"},
		{"signing out stops a commit", pay, shop("", "20.00", "", 200), nil, agent.Hold, `to ""`},
		{"a principal change stops even with approval", pay, shop("bob", "20.00", "", 200), approval, agent.Hold, "the task acts for alice; the signed-in account is bob"},
		{"re-authorization asks again", pay, shop("bob", "20.00", "", 200), reauthorize, agent.Allow, "needs a new approval"},
		{"reading goes on after a principal change", read, shop("bob", "25.00", "", 200), nil, agent.Allow, "within budget"},
		{"a new version stops a high-risk commit", pay, withVersion(shop("alice", "20.00", "", 200), "v4"), nil, agent.Hold, `version changed from "v3" to "v4"`},
		{"a new version does not stop a low-risk commit", save, withVersion(shop("alice", "20.00", "", 200), "v4"), nil, agent.Allow, "low-risk commit"},
		{"another page stops a low-risk commit", save, withURL(shop("alice", "20.00", "", 200), "http://shop/orders"), nil, agent.Hold, "the page moved"},
	}
	for _, tt := range tests {
		d := Admit(agent.PolicyRequest{Action: tt.a, Grounding: history[0].After, Fresh: tt.fresh, History: history, Budget: 8, Spent: 1, Safeguards: tt.guard})
		if d.Admission != tt.want || !strings.Contains(d.Reason, tt.reasonHas) {
			t.Errorf("%s: %s %q, want %s with %q", tt.name, d.Admission, d.Reason, tt.want, tt.reasonHas)
		}
		if d.Observed == nil || d.Observed.Principal != tt.fresh.Principal || d.Observed.AtMS != 200 || d.Observed.Hash != d.Fingerprint {
			t.Errorf("%s: observed %+v, want the fresh page's fingerprint", tt.name, d.Observed)
		}
	}
}

func TestPlanPrincipalIsTheFirstSignedInOne(t *testing.T) {
	signedOut := shop("", "20.00", "", 0)
	history := []agent.Step{{Before: signedOut}, {Before: shop("alice", "20.00", "", 50)}}
	// Signing in is not a change of account; the plan's account is the first one seen.
	d := Admit(agent.PolicyRequest{Action: click("button", "Pay"), Grounding: shop("alice", "20.00", "", 60),
		Fresh: shop("alice", "20.00", "", 70), History: history, Budget: 8})
	if d.Admission != agent.Allow {
		t.Errorf("pay as the first signed-in account: %s %q, want allow", d.Admission, d.Reason)
	}
}

func TestFingerprintParts(t *testing.T) {
	a := Observe(shop("alice", "20.00", "", 5), agent.Target{Role: "button", Name: "Pay"})
	b := Observe(shop("alice", "20.00", "Spring sale!", 9), agent.Target{Role: "button", Name: "Pay"})
	if a.Hash != b.Hash || a.AtMS != 5 || a.Route != "http://shop/" || a.Target != "button[Pay]" || a.Relevant == "" || a.Version != "v3" {
		t.Errorf("fingerprints %+v and %+v: want the same hash whatever the banner and time, the route without its fragment", a, b)
	}
	for _, other := range []agent.Sample{shop("bob", "20.00", "", 5), shop("alice", "21.00", "", 5)} {
		if Observe(other, agent.Target{Role: "button", Name: "Pay"}).Hash == a.Hash {
			t.Errorf("%+v: same hash as alice at 20.00", other)
		}
	}
}

// TestAnEmptyFieldAppearingIsNoChange: a frame's form that loads after its page adds empty
// fields, which change no value a commit was decided on; a value emptied since does.
func TestAnEmptyFieldAppearingIsNoChange(t *testing.T) {
	target := agent.Target{Role: "button", Name: "Delete"}
	planned := agent.Sample{URL: "http://x/", Fields: []agent.Field{{Role: "textbox", Name: "Amount", Value: "12.50"}}}
	loaded := planned
	loaded.Fields = append(slices.Clone(planned.Fields), agent.Field{Role: "textbox", Name: "Note", Value: ""})
	if c := Changes(planned, loaded, target, agent.RiskHigh); len(c) != 0 {
		t.Errorf("an empty field appearing: %v, want no change", c)
	}
	emptied := planned
	emptied.Fields = []agent.Field{{Role: "textbox", Name: "Amount", Value: ""}}
	if c := Changes(planned, emptied, target, agent.RiskHigh); !slices.Contains(c, "the form's values differ") {
		t.Errorf("a value emptied since: %v, want the form's values to differ", c)
	}
}
