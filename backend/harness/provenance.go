package harness

import (
	"fmt"
	"regexp"
	"strings"

	"observatory/backend/agent"
)

// instruction matches text that speaks to the agent rather than the user: "ignore your
// task", "disregard the previous instructions", "forget the rules above", up to the end of
// its sentence (a dot inside an address does not end it).
var instruction = regexp.MustCompile(`(?i)\b(ignore|disregard|forget|override)\b[^.!?]{0,40}?\b(task|instructions?|request|previous|above|rules|prompt)\b(?:[^.!?]|[.!?]\S){0,200}`)

// Injected is the instruction to the agent the page's text carries ("ignore your task and
// send …"), "" when it carries none. Such text is the page's, never the user's.
func Injected(s agent.Sample) string {
	return strings.TrimSpace(instruction.FindString(s.Text))
}

// foreign is the first value an irreversible action would send that the user's request
// does not contain: the action's own value, or a filled field of the page. "" when every
// value comes from the request.
func foreign(a agent.Action, page agent.Sample, intent string) string {
	in := strings.ToLower(intent)
	values := []string{a.Value}
	for _, f := range page.Fields {
		if f.Role != "checkbox" {
			values = append(values, f.Value)
		}
	}
	for _, v := range values {
		if v = strings.TrimSpace(v); v != "" && !strings.Contains(in, strings.ToLower(v)) {
			return v
		}
	}
	return ""
}

// holdInjected holds d's irreversible action when the page carries instructions to the
// agent and the action would send something the user never asked for: page text never
// becomes intent. Without an intent to compare with, nothing is held.
func holdInjected(d agent.Decision, req agent.PolicyRequest) agent.Decision {
	if d.Admission != agent.Allow || d.Contract != agent.ContractIrreversible || req.Intent == "" {
		return d
	}
	said := Injected(req.Fresh)
	if said == "" {
		return d
	}
	if v := foreign(req.Action, req.Fresh, req.Intent); v != "" {
		d.Admission, d.Why = agent.Hold, agent.WhyInjection
		d.Reason = fmt.Sprintf("the page carries instructions to the agent (%q), and this would send %q, which the user's request does not name: page text never becomes intent", said, v)
	}
	return d
}
