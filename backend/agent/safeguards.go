package agent

import (
	"fmt"
	"slices"
)

// Safeguards are a task's settings for irreversible actions: review by a policy, and the
// user's approval at the point of risk. Nil fields are off.
type Safeguards struct {
	Review   *ReviewSpec   `json:"review,omitempty"`
	Approval *ApprovalSpec `json:"approval,omitempty"`
	// Scripts is what an agent's own script on the page (ActEvaluate) gets: ScriptsAllow,
	// ScriptsAsk (the default, when empty: it runs once the user approves it) or ScriptsDeny.
	Scripts string `json:"scripts,omitempty"`
}

// What a task's safeguards give an agent's own scripts.
const (
	ScriptsAllow = "allow"
	ScriptsAsk   = "ask"
	ScriptsDeny  = "deny"
)

// ScriptsPolicy is what g gives an agent's scripts: ScriptsAsk unless g says otherwise.
func (g *Safeguards) ScriptsPolicy() string {
	if g == nil || g.Scripts == "" {
		return ScriptsAsk
	}
	return g.Scripts
}

// Reviewers a ReviewSpec can name.
const (
	ReviewerRules = "rules" // CEL rules over the action and the page
	ReviewerModel = "model" // a model, through the planner's providers
)

// What review does when its reviewer cannot answer.
const (
	OnUnavailableHold  = "hold"
	OnUnavailableAllow = "allow"
)

// ReviewSpec says how irreversible actions are reviewed just before they run.
type ReviewSpec struct {
	// Policy is the policy text the reviewer judges against, in the user's words.
	Policy string `json:"policy"`
	// Reviewer is ReviewerRules or ReviewerModel.
	Reviewer string `json:"reviewer"`
	// Rules are the rules reviewer's: any rule whose expression holds is a caution.
	Rules []ReviewRule `json:"rules,omitempty"`
	// OnUnavailable is OnUnavailableHold (the default, when empty) or OnUnavailableAllow.
	OnUnavailable string `json:"on_unavailable,omitempty"`
}

// ReviewRule is one rule: a CEL expression over `action` and `page` that holds when the
// action breaks the policy, and the reason given when it does.
type ReviewRule struct {
	Expr   string `json:"expr"`
	Reason string `json:"reason"`
}

// ApprovalSpec says that irreversible actions wait for the user's approval, and how long.
type ApprovalSpec struct {
	// LimitMS is how long the user has to answer; no answer by then holds the action.
	LimitMS int `json:"limit_ms"`
	// For are the classes of irreversible action that wait for approval (ClassCommit,
	// ClassDestruct); empty for both: every irreversible action.
	For []ActionClass `json:"for,omitempty"`
	// Methods are the request methods an outside agent's pages send only with approval (see
	// Unseen); empty for the planner's own (HeldMethods).
	Methods []string `json:"methods,omitempty"`
	// Reauthorize lets an action acting as another account than the one the task acts for
	// (the plan's) be asked, with the change stated first; without it such an action stops:
	// authority changes invalidate the plan.
	Reauthorize bool `json:"reauthorize,omitempty"`
	// Mutations name the requests an outside agent's pages may send, so that the approval
	// of one held at the network says what it does in the task's terms.
	Mutations []Mutation `json:"mutations,omitempty"`
}

// Covers reports whether an irreversible action of class c waits for approval under a.
func (a *ApprovalSpec) Covers(c ActionClass) bool {
	return a != nil && c.Commits() && (len(a.For) == 0 || slices.Contains(a.For, c))
}

// Review verdicts.
const (
	ReviewClear       = "clear"
	ReviewCaution     = "caution"
	ReviewUnavailable = "unavailable"
)

// Review is a reviewer's judgement of one irreversible action, as recorded in its Decision.
type Review struct {
	Reviewer string `json:"reviewer"`
	// Verdict is ReviewClear, ReviewCaution or ReviewUnavailable.
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
	// InTokens, OutTokens and CostUSD are what asking the reviewer cost: a model reviewer's
	// usage, answered or not, which the attempt's and the run's budgets count; zero for the
	// rules reviewer. On a step's recorded decision they are what all its reviews cost: a
	// re-check that reviewed again adds the cost of the review it replaced.
	InTokens  int64   `json:"in_tokens,omitempty"`
	OutTokens int64   `json:"out_tokens,omitempty"`
	CostUSD   float64 `json:"cost_usd,omitempty"`
	// Kept is set on a review a re-check kept from the step's decision before it (the page
	// showed the reviewer nothing new, or the re-check decided without a review): it was
	// paid for once, when it was given, and is not spent again.
	Kept bool `json:"kept,omitempty"`
}

// Validate says what is wrong with g, naming the field, or returns nil.
func (g *Safeguards) Validate() error {
	if g == nil {
		return nil
	}
	if r := g.Review; r != nil {
		switch {
		case r.Reviewer != ReviewerRules && r.Reviewer != ReviewerModel:
			return fmt.Errorf("review.reviewer %q: want %q or %q", r.Reviewer, ReviewerRules, ReviewerModel)
		case r.OnUnavailable != "" && !slices.Contains([]string{OnUnavailableHold, OnUnavailableAllow}, r.OnUnavailable):
			return fmt.Errorf("review.on_unavailable %q: want %q or %q", r.OnUnavailable, OnUnavailableHold, OnUnavailableAllow)
		case r.Reviewer == ReviewerRules && len(r.Rules) == 0:
			return fmt.Errorf("review.rules: the rules reviewer needs at least one rule")
		}
	}
	if !slices.Contains([]string{"", ScriptsAllow, ScriptsAsk, ScriptsDeny}, g.Scripts) {
		return fmt.Errorf("scripts %q: want %q, %q or %q", g.Scripts, ScriptsAllow, ScriptsAsk, ScriptsDeny)
	}
	if a := g.Approval; a != nil {
		if a.LimitMS < 1 || a.LimitMS > 3600000 {
			return fmt.Errorf("approval.limit_ms %d: want 1 to 3600000", a.LimitMS)
		}
		for i, c := range a.For {
			if !c.Commits() {
				return fmt.Errorf("approval.for[%d] %q: want %q or %q", i, c, ClassCommit, ClassDestruct)
			}
		}
	}
	return nil
}
