package harness

import (
	"fmt"
	"strings"

	"observatory/backend/agent"
)

// Admit decides whether the proposed action may run now, from what it is: the budget, and
// for commits whether the page still matches the state the action was planned on. The
// request's Grounding is that observation, Fresh the one taken immediately before acting and
// History the attempt so far. A commit is held when the signed-in account is not the one the
// plan was made under (unless the task allows re-authorization: a new approval), or when Changes finds
// a difference for its risk. Repeats, review and approval are the Policy's, on top.
func Admit(req agent.PolicyRequest) agent.Decision {
	a := req.Action
	c := Classify(a, req.Fresh)
	seen := Observe(req.Fresh, a.Target)
	d := agent.Decision{Class: c.Class, Contract: c.Contract, Why: c.Why, Key: Key(a, req.Fresh), Fingerprint: seen.Hash,
		Observed: &seen, Risk: RiskOf(c)}
	plan := agent.PlanPrincipal(req.History, req.Grounding)
	switch {
	case req.Spent >= req.Budget:
		d.Admission = agent.Deny
		d.Reason = fmt.Sprintf("action budget spent: %d of %d actions used", req.Spent, req.Budget)
	case !c.Class.Commits():
		d.Admission = agent.Allow
		d.Reason = fmt.Sprintf("%s action within budget (%d of %d used)", d.Class, req.Spent, req.Budget)
	case plan != "" && req.Fresh.Principal != plan:
		d.Admission = agent.Hold
		d.Reason = fmt.Sprintf("the signed-in account changed from %q to %q since the plan was made: %s", plan, req.Fresh.Principal, agent.AuthorityStop(plan, req.Fresh.Principal))
		if g := req.Safeguards; g != nil && g.Approval.Covers(c.Class) && g.Approval.Reauthorize {
			d.Admission = agent.Allow
			d.Reason = fmt.Sprintf("the signed-in account changed from %q to %q since the plan was made: the task allows re-authorization, so the commit needs a new approval that states the change first", plan, req.Fresh.Principal)
		}
	default:
		if changed := Changes(req.Grounding, req.Fresh, a.Target, d.Risk); len(changed) > 0 {
			d.Admission = agent.Hold
			d.Reason = fmt.Sprintf("the page changed since the action was planned (%s); re-observe and re-plan before this %s-risk commit", strings.Join(changed, "; "), d.Risk)
			break
		}
		d.Admission = agent.Allow
		d.Reason = fmt.Sprintf("%s-risk commit: the page still matches the state it was planned on", d.Risk)
	}
	return d
}

// HoldRepeat holds d's action, and lets the attempt go on without it, when it is irreversible
// and the same call already succeeded on this page in history: the one hold admission makes
// for repeating. A call that opened a confirmation (Publish that shows a panel with its own
// Publish) succeeded only when its effect was seen (see effectSeen): opening the panel, or
// opening it again after a Cancel, committed nothing, and the call runs again. Any other
// call that ran is taken to have succeeded, its effect perhaps still in flight (a slow Send
// clicked twice). A denial stands.
func HoldRepeat(d agent.Decision, history []agent.Step) agent.Decision {
	if d.Admission == agent.Deny || d.Contract != agent.ContractIrreversible {
		return d
	}
	for i := len(history) - 1; i >= 0; i-- {
		h := history[i]
		if h.Decision.Key != d.Key || h.Decision.Admission != agent.Allow || h.Error != "" {
			continue
		}
		effect := effectSeen(history[i:])
		if effect == "" && opensConfirmation(h) {
			continue
		}
		d.Admission, d.Continue = agent.Hold, true
		d.Reason = fmt.Sprintf("this irreversible action already succeeded on this page at step %d; it is not run again", h.Index+1)
		if effect != "" {
			d.Reason = fmt.Sprintf("this irreversible action already succeeded on this page at step %d (%s); it is not run again", h.Index+1, effect)
		}
		return d
	}
	return d
}

// effectSeen says how the first of steps, an irreversible call, is seen to have changed
// something, "" when it is not: a request that changes state (not GET, HEAD or OPTIONS),
// sent while the step ran and answered with a success or a redirect (in its traffic or, if
// it ended later, a later step's), or the page's version (the task's authority) moved.
func effectSeen(steps []agent.Step) string {
	call := steps[0]
	if call.After.Version != call.Before.Version && call.After.Version != "" {
		return fmt.Sprintf("the page's version moved from %q to %q", call.Before.Version, call.After.Version)
	}
	for _, s := range steps {
		for _, r := range s.Traffic.Requests {
			during := r.StartMS >= call.StartMS && r.StartMS <= call.StartMS+call.DurationMS
			if during && !safeMethod(r.Method) && r.Status >= 200 && r.Status < 400 {
				return fmt.Sprintf("%s %s answered %d", r.Method, r.URL, r.Status)
			}
		}
	}
	return ""
}

// opensConfirmation reports whether step s, a click, left more controls named as its target
// than it found: it opened a confirmation stage (a panel or dialog with its own Publish)
// rather than committing.
func opensConfirmation(s agent.Step) bool {
	name := s.Action.Target.TextOf()
	count := func(pairs []agent.RoleName) int {
		n := 0
		for _, p := range pairs {
			if p.Name == name {
				n++
			}
		}
		return n
	}
	return name != "" && count(s.After.Pairs) > count(s.Before.Pairs)
}

// safeMethod reports whether an HTTP method only reads.
func safeMethod(m string) bool {
	switch strings.ToUpper(m) {
	case "GET", "HEAD", "OPTIONS":
		return true
	}
	return false
}
