package agent

import (
	"fmt"
	"net/url"
	"strings"
)

// Comparison is one field of what approving would do, compared with what the task asked:
// the account it acts as, the recipient, the amount, the destination page, or one of the
// task's relevant facts. Every channel (the terminal, the window, an MCP session's approvals,
// an outside agent's held requests) shows the same comparisons, differences first.
type Comparison struct {
	// Field is "principal", "recipient", "amount", "destination" or a relevant fact's id.
	Field string `json:"field"`
	// Asked is what the task asked ("" when it says nothing of this field); Now what
	// approving would do.
	Asked string `json:"asked"`
	Now   string `json:"now"`
	// Differs names the difference in the user's words ("the task acts for alice; the
	// signed-in account is bob"); "" when the field is as asked.
	Differs string `json:"differs,omitempty"`
}

// Comparison fields other than the task's relevant facts.
const (
	FieldPrincipal   = "principal"
	FieldRecipient   = "recipient"
	FieldAmount      = "amount"
	FieldDestination = "destination"
)

// Compare sets q's comparisons with what the task asked: principal is the account the task
// acts for (the one its plan was made under, "" when none was seen), and asked the request
// as the task last saw it, which basis says ("when the action was planned": its amount,
// recipient, destination and facts then). It also states q's effect in the task's terms.
// Neither is a detail approved: Hash is unchanged.
func (q *ApprovalRequest) Compare(principal string, asked ApprovalRequest, basis string) {
	q.Compared = nil
	add := func(field, was, now string) {
		if was == "" && now == "" {
			return
		}
		c := Comparison{Field: field, Asked: was, Now: now}
		switch {
		case was == "" || was == now:
		case field == FieldPrincipal:
			c.Differs = fmt.Sprintf("the task acts for %s; the signed-in account is %s", was, orNobody(now))
		default:
			c.Differs = fmt.Sprintf("the %s was %s %s; it is now %s", field, was, basis, orNone(now))
		}
		q.Compared = append(q.Compared, c)
	}
	add(FieldPrincipal, principal, q.Principal)
	add(FieldRecipient, asked.Recipient, q.Recipient)
	add(FieldAmount, asked.Amount, q.Amount)
	if asked.URL != "" {
		add(FieldDestination, route(asked.URL), route(q.URL))
	}
	was := map[string]string{}
	for _, f := range asked.Facts {
		was[f.ID] = f.Value
	}
	for _, f := range q.Facts {
		if (amountField.MatchString(f.ID) && f.Value == q.Amount) || (recipientField.MatchString(f.ID) && f.Value == q.Recipient) {
			continue // compared above, as the amount or the recipient
		}
		add(f.ID, was[f.ID], f.Value)
	}
	q.Effect = effectOf(*q)
}

// Bases of a comparison: what the task asked was seen when the action was planned, or (for
// a request an outside agent's page sent) on the page.
const (
	BasisPlanned = "when the action was planned"
	BasisPage    = "on the page"
)

// Differences are q's comparisons that differ from what the task asked, in the user's words.
func (q ApprovalRequest) Differences() []string {
	var out []string
	for _, c := range q.Compared {
		if c.Differs != "" {
			out = append(out, c.Differs)
		}
	}
	return out
}

// PrincipalChanged reports whether q acts as an account other than the one the task acts for.
func (q ApprovalRequest) PrincipalChanged() bool {
	for _, c := range q.Compared {
		if c.Field == FieldPrincipal && c.Differs != "" {
			return true
		}
	}
	return false
}

// effectOf states what approving q would do in the task's terms: the action, as whom, to
// whom, how much, where ("Pay for the cart as bob, 20.00, on 127.0.0.1:8080/").
func effectOf(q ApprovalRequest) string {
	var b strings.Builder
	b.WriteString(q.Action)
	if q.Principal != "" {
		fmt.Fprintf(&b, " as %s", q.Principal)
	}
	if q.Recipient != "" {
		fmt.Fprintf(&b, " to %s", q.Recipient)
	}
	if q.Amount != "" {
		fmt.Fprintf(&b, ", %s", q.Amount)
	}
	if r := route(q.URL); r != "" {
		fmt.Fprintf(&b, ", on %s", r)
	}
	return b.String()
}

// route is a page's address as a destination: host and path, without the scheme, query or
// fragment; u itself when it does not parse.
func route(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return u
	}
	return p.Host + p.EscapedPath()
}

func orNobody(s string) string {
	if s == "" {
		return "nobody (signed out)"
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// PlanPrincipal is the account the plan was made under, which the task acts for: the first
// principal observed in the attempt (history's, else grounding's), "" while none has been
// (before signing in). Authority changes invalidate the plan.
func PlanPrincipal(history []Step, grounding Sample) string {
	for _, s := range history {
		if s.Before.Principal != "" {
			return s.Before.Principal
		}
	}
	return grounding.Principal
}

// whyAsked is the rule that requires the user's approval of an action of class c and kind k
// under g, in the user's words, naming the task-file setting.
func whyAsked(g *Safeguards, c ActionClass, k ActionKind, reauthorize bool) string {
	var why string
	switch {
	case g != nil && g.Approval.Covers(c) && len(g.Approval.For) > 0:
		why = fmt.Sprintf("the task's safeguards require approval of every %s (safeguards.approval.required_for)", c)
	case g != nil && g.Approval.Covers(c):
		why = "the task's safeguards require approval of every irreversible action (safeguards.approval)"
	case k == ActUpload:
		why = "an upload sends a local file and cannot be taken back: it always waits for approval"
	default:
		why = "the harness asks before this irreversible action"
	}
	if reauthorize {
		why = "the signed-in account is not the one the task acts for, and the task allows re-authorization (safeguards.approval.reauthorize): " + why
	}
	return why
}

// AuthorityStop is why an action acting as another account than the task's stops without
// asking: authority changes invalidate the plan.
func AuthorityStop(from, to string) string {
	return fmt.Sprintf("the task acts for %s; the signed-in account is %s: authority changes invalidate the plan, and the task does not allow re-authorization (safeguards.approval.reauthorize)",
		from, orNobody(to))
}
