package checkout

import "observatory/backend/agent"

// Labels of the shop's controls.
const (
	AddLabel = "Add to cart"
	PayLabel = "Pay"
	// RenamedPayLabel is what the renamed-pay A/B flag calls Pay.
	RenamedPayLabel = "Complete purchase"
)

// approvalLimitMS is how long the user has to answer an approval: long enough for a person
// reading the card in the window or the prompt at the terminal. With nobody to ask, or
// --approve hold, the payment is held at once, not after the limit.
const approvalLimitMS = 60000

// deadlineMS is how long a verify waits for the order to be confirmed: generous, since the
// condition wait ends as soon as it is.
const deadlineMS = 5000

// plan is the fixed plan: add the product to the cart, pay, verify.
func plan() agent.Plan {
	return agent.Plan{
		{ID: "add", Description: "Add the lab notebook to the cart", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: AddLabel}},
		{ID: "pay", Description: "Pay for the cart", Kind: agent.ActClick, Target: agent.Target{Role: "button", Name: PayLabel}},
		{ID: "verify", Description: "Verify the order was placed", Kind: agent.ActVerify},
	}
}

// attempts are the lab's scripted attempts, one per fault the issue names. Each pays only
// once the user approves it, with the account and the amount in the request: the harness
// asks; the naive executor does not.
func attempts() []agent.AttemptSpec {
	return []agent.AttemptSpec{
		attempt("pays-normally", "Pays normally", FaultNone),
		attempt("price-changed", "The price changes between observing and paying", FaultPriceChanged),
		attempt("account-switched", "Another tab switches the signed-in account", FaultAccountSwitched),
		attempt("harmless-banner", "A promotion banner shifts the layout", FaultBanner),
		attempt("renamed-pay", "An A/B flag renames Pay", FaultRenamedPay),
	}
}

// attempt builds one AttemptSpec from the default configuration with a generous deadline and
// approval of irreversible actions.
func attempt(slug, title, fault string) agent.AttemptSpec {
	c := agent.DefaultConfig()
	c.DeadlineMS = deadlineMS
	c.Safeguards = &agent.Safeguards{Approval: &agent.ApprovalSpec{LimitMS: approvalLimitMS}}
	return agent.AttemptSpec{Slug: slug, Title: title, Fault: fault, Config: c}
}
