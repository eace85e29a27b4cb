package agent

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"strings"
)

// Mutation names one kind of request that changes the app's state, as a task describes it:
// requests of Method whose path matches Path (a pattern where * stands for one segment or
// part of one: /api/orders/*) do what Description says, and the body fields named carry
// the amount, the account acted as and the recipient. With it, the approval of such a
// request held at the network (an outside agent's) is asked in the task's terms.
type Mutation struct {
	Method      string `json:"method"`
	Path        string `json:"path"`
	Description string `json:"description"`
	// Amount, Principal and Recipient name body fields: a JSON body's keys (dotted for
	// nested objects: order.total) or a form's fields; empty when none carries it.
	Amount    string `json:"amount,omitempty"`
	Principal string `json:"principal,omitempty"`
	Recipient string `json:"recipient,omitempty"`
}

// Matches reports whether request method and address u are of kind m.
func (m Mutation) Matches(method, u string) bool {
	p, err := url.Parse(u)
	if err != nil || !strings.EqualFold(m.Method, method) {
		return false
	}
	ok, err := path.Match(m.Path, p.Path)
	return err == nil && ok
}

// Unknown is what the card of a held request says when the task names no mutation it is.
const Unknown = "Observatory cannot tell what this request does"

// DescribeHeld states what approving held request q would let happen: in the task's terms
// when one of mutations names it (its description, and the amount, account and recipient
// its body carries, each compared with what page showed and principal, the account the task
// acts for), else plainly that Observatory cannot tell what it does. The request's URL and
// body are as the approver may see them (secrets masked).
func DescribeHeld(q HeldRequest, mutations []Mutation, principal string, page Sample) ApprovalRequest {
	req := ApprovalRequest{Action: fmt.Sprintf("%s %s", q.Method, q.URL), Target: "a request to " + q.Origin,
		URL: q.URL, Data: []Field{{Role: "request body", Name: "body", Value: q.Body}},
		Permanence: "The agent's page sends this request on its own; once sent, its effect is outside this page."}
	for _, m := range mutations {
		if !m.Matches(q.Method, q.URL) {
			continue
		}
		fields := bodyFields(q.Body)
		req.Action = m.Description
		req.Target = fmt.Sprintf("%s %s, a request to %s", q.Method, pathOf(q.URL), q.Origin)
		req.Amount, req.Recipient, req.Principal = fields[m.Amount], fields[m.Recipient], fields[m.Principal]
		if m.Principal == "" {
			req.Principal = page.Principal // the session's: the account the page is signed in as
		}
		asked := DescribeApproval(0, Action{}, ClassCommit, page)
		asked.URL = ""
		req.Compare(principal, asked, BasisPage)
		req.Hash = req.DetailsHash()
		return req
	}
	req.Effect = fmt.Sprintf("%s: the task names no mutation for %s %s", Unknown, q.Method, pathOf(q.URL))
	req.Hash = req.DetailsHash()
	return req
}

// pathOf is the path of address u, u itself when it does not parse.
func pathOf(u string) string {
	if p, err := url.Parse(u); err == nil && p.Path != "" {
		return p.Path
	}
	return u
}

// bodyFields reads a request body summary as fields: a JSON object's values by their
// (dotted) keys, else a form's; empty when it is neither, or cut short.
func bodyFields(body string) map[string]string {
	out := map[string]string{}
	var obj map[string]any
	d := json.NewDecoder(strings.NewReader(body))
	d.UseNumber()
	if d.Decode(&obj) == nil {
		flatten("", obj, out)
		return out
	}
	if form, err := url.ParseQuery(body); err == nil {
		for k, v := range form {
			out[k] = v[0]
		}
	}
	return out
}

// flatten adds obj's scalar values to out by their dotted keys under prefix.
func flatten(prefix string, obj map[string]any, out map[string]string) {
	for k, v := range obj {
		key := k
		if prefix != "" {
			key = prefix + "." + k
		}
		switch v := v.(type) {
		case map[string]any:
			flatten(key, v, out)
		case string:
			out[key] = v
		case json.Number:
			out[key] = v.String()
		case bool:
			out[key] = fmt.Sprint(v)
		}
	}
}
