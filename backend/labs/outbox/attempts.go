package outbox

import "observatory/backend/agent"

// Labels of the composer's controls.
const (
	SendLabel  = "Send"
	RetryLabel = "Retry"
	// OpLabel is the read-only field that shows the latest send's operation id.
	OpLabel = "Operation id"
)

// ReviewPolicy is the policy text the review attempts judge the send against.
const ReviewPolicy = "Financial results stay inside the company until they are published: hold any message that shares the Q3 figures."

// reviewRule is the review-caution attempt's rule for ReviewPolicy, in CEL over the action
// and the page.
var reviewRule = agent.ReviewRule{
	Expr:   `action.contract == "irreversible" && page.fields.exists(f, f.name == "Message" && f.value.contains("Q3 figures"))`,
	Reason: "the message shares the Q3 figures, which are not published yet",
}

// answerLimitMS is how long the approval attempts the user answers give them: long enough
// for a person at the window, and for a test's checks of the card on a loaded machine.
const answerLimitMS = 60000

// heldLimitMS is how long approval-timeout gives the user: short, since nobody answers it and
// the attempt is about the hold.
const heldLimitMS = 1000

// plan is the fixed plan: fill the three fields, send, verify.
func plan() agent.Plan {
	return agent.Plan{
		fill("fill-to", "Fill the recipient", "To", Requested.To),
		fill("fill-subject", "Fill the subject", "Subject", Requested.Subject),
		fill("fill-body", "Fill the message", "Message", Requested.Body),
		send(),
		{ID: "verify", Description: "Verify the message was sent", Kind: agent.ActVerify},
	}
}

// attempts are the lab's scripted attempts: one per fault and safeguard the table
// names, plus delivered-twice. Every attempt may retry an ambiguous send once; whether that
// retry is blind or reconciled first is the harness's business.
func attempts() []agent.AttemptSpec {
	twice := append(plan()[:4:4], send(), plan()[4])
	twice[4].ID, twice[4].Description = "send-again", "Send again: nothing seemed to happen"
	return []agent.AttemptSpec{
		attempt("sends-normally", "Sends normally", FaultNone, nil, nil),
		attempt("lost-response-after-commit", "Response lost after the send committed", FaultResponseLost, nil, nil),
		attempt("dropped-before-commit", "Connection dropped before the commit", FaultDropped, nil, nil),
		attempt("send-clicked-twice", "Slow send, Send clicked twice", FaultSlowSend, nil, twice),
		attempt("review-caution", "The message breaks the review policy", FaultNone,
			&agent.Safeguards{Review: &agent.ReviewSpec{Policy: ReviewPolicy, Reviewer: agent.ReviewerRules, Rules: []agent.ReviewRule{reviewRule}}}, nil),
		attempt("reviewer-unavailable", "The model reviewer cannot answer", FaultNone,
			&agent.Safeguards{Review: &agent.ReviewSpec{Policy: ReviewPolicy, Reviewer: agent.ReviewerModel}}, nil),
		attempt("approval-denied", "The user denies the send", FaultNone, approval(answerLimitMS), nil),
		attempt("approval-timeout", "The user does not answer in time", FaultNone, approval(heldLimitMS), nil),
		attempt("recipient-changed-after-approval", "The page changes the recipient after approval", FaultRecipientChanged, approval(answerLimitMS), nil),
		attempt("delivered-twice", "The server stores the send twice and the response is lost", FaultDeliveredTwice, nil, nil),
	}
}

// approval is the safeguard that asks the user about every irreversible action, giving them
// limitMS to answer.
func approval(limitMS int) *agent.Safeguards {
	return &agent.Safeguards{Approval: &agent.ApprovalSpec{LimitMS: limitMS}}
}

// deadlineMS is how long a verify waits for the send to be confirmed: generous, since the
// condition wait ends as soon as it is, and a busy machine must not turn a slow page into a
// different row.
const deadlineMS = 5000

// attempt builds one AttemptSpec from the default configuration with one retry, a generous
// deadline, the safeguards and, when it has one, the attempt's own plan.
func attempt(slug, title, fault string, guard *agent.Safeguards, plan agent.Plan) agent.AttemptSpec {
	c := agent.DefaultConfig()
	c.Retries, c.DeadlineMS, c.Safeguards = 1, deadlineMS, guard
	return agent.AttemptSpec{Slug: slug, Title: title, Fault: fault, Config: c, Plan: plan}
}

func fill(id, description, label, value string) agent.Action {
	return agent.Action{ID: id, Description: description, Kind: agent.ActFill,
		Target: agent.Target{Role: "textbox", Name: label}, Value: value}
}

func send() agent.Action {
	return agent.Action{ID: "send", Description: "Send the message", Kind: agent.ActClick,
		Target: agent.Target{Role: "button", Name: SendLabel}}
}
