package taskfile

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"observatory/backend/agent"
	"observatory/backend/harness"
)

// Safeguards are what a task's irreversible actions (send, post, pay, delete…) get: review
// against a policy just before they run, and the user's approval at the point of risk. An
// attempt's own safeguards replace the task's; an empty object turns them off.
type Safeguards struct {
	Review   *Review   `json:"review,omitempty"`
	Approval *Approval `json:"approval,omitempty"`
	// Scripts is what an agent's own script on the page (browser_evaluate over MCP) gets:
	// allow, ask (the default: it runs once the user approves it) or deny.
	Scripts string `json:"scripts,omitempty"`
}

// Review says how irreversible actions are reviewed: against Policy, by the rules reviewer
// (CEL rules over the action and the page) or the model reviewer (the run's models).
type Review struct {
	Policy   string       `json:"policy"`
	Reviewer string       `json:"reviewer"`
	Rules    []ReviewRule `json:"rules,omitempty"`
	// OnUnavailable is hold (the default) or allow: what review does when its reviewer
	// cannot answer.
	OnUnavailable string `json:"on_unavailable,omitempty"`
}

// ReviewRule is one rule: a CEL expression that holds when the action breaks the policy, and
// the reason the review then gives.
type ReviewRule struct {
	Expr   string `json:"expr"`
	Reason string `json:"reason"`
}

// Approval says which irreversible actions wait for the user's approval, and how long the
// user has to answer.
type Approval struct {
	// RequiredFor lists irreversible (every irreversible action, the default), commit or
	// destruct.
	RequiredFor []string `json:"required_for,omitempty"`
	LimitMS     *int     `json:"limit_ms,omitempty"`
	// Methods are the request methods an outside agent's pages send only with approval
	// (POST, PUT, PATCH and DELETE when absent).
	Methods []string `json:"methods,omitempty"`
	// Reauthorize asks about an action acting as another account than the task acts for,
	// the change stated first, instead of stopping the attempt.
	Reauthorize bool `json:"reauthorize,omitempty"`
	// Mutations name the requests an outside agent's pages send, so that the approval of one
	// held at the network says what it does in the task's terms.
	Mutations []Mutation `json:"mutations,omitempty"`
}

// Mutation is one kind of request the task names: its method and path pattern (* for one
// segment or part of one), what it does, and the body fields that carry the amount, the
// account acted as and the recipient.
type Mutation struct {
	Method      string `json:"method"`
	Path        string `json:"path"`
	Description string `json:"description"`
	Amount      string `json:"amount,omitempty"`
	Principal   string `json:"principal,omitempty"`
	Recipient   string `json:"recipient,omitempty"`
}

// requestMethod is an HTTP request method as approval.methods names it.
var requestMethod = regexp.MustCompile(`^[A-Z]{1,16}$`)

// maxMethods bounds approval.methods.
const maxMethods = 16

// Values of approval.required_for.
const (
	requiredIrreversible = "irreversible"
	requiredCommit       = string(agent.ClassCommit)
	requiredDestruct     = string(agent.ClassDestruct)
)

// maxRules bounds a review's rules.
const maxRules = 50

// safeguards reads the task's safeguards section.
func (b *builder) safeguards(doc *Document) error {
	g, err := doc.Safeguards.domain("safeguards")
	b.s.safeguards = g
	return err
}

// domain maps g to the agent's safeguards, checking each field at its path under at: nil
// when g is absent or empty.
func (g *Safeguards) domain(at string) (*agent.Safeguards, error) {
	if g == nil || (g.Review == nil && g.Approval == nil && g.Scripts == "") {
		return nil, nil
	}
	out := &agent.Safeguards{Scripts: g.Scripts}
	if !slices.Contains([]string{"", agent.ScriptsAllow, agent.ScriptsAsk, agent.ScriptsDeny}, g.Scripts) {
		return nil, errAt(join(at, "scripts"), "want %s, %s (the default) or %s, got %q", agent.ScriptsAllow, agent.ScriptsAsk, agent.ScriptsDeny, g.Scripts)
	}
	if r := g.Review; r != nil {
		spec, err := r.domain(join(at, "review"))
		if err != nil {
			return nil, err
		}
		out.Review = spec
	}
	if a := g.Approval; a != nil {
		spec, err := a.domain(join(at, "approval"))
		if err != nil {
			return nil, err
		}
		out.Approval = spec
	}
	if err := out.Validate(); err != nil { // what the paths above do not already say
		return nil, errAt(at, "%v", err)
	}
	return out, nil
}

func (r *Review) domain(at string) (*agent.ReviewSpec, error) {
	switch {
	case r.Policy == "":
		return nil, errAt(join(at, "policy"), "state the policy the reviewer judges against, in the user's words")
	case len(r.Policy) > maxText:
		return nil, errAt(join(at, "policy"), "at most %d bytes", maxText)
	case r.Reviewer != agent.ReviewerRules && r.Reviewer != agent.ReviewerModel:
		return nil, errAt(join(at, "reviewer"), "want %s (CEL rules over the action and the page) or %s (the run's models), got %q",
			agent.ReviewerRules, agent.ReviewerModel, r.Reviewer)
	case r.OnUnavailable != "" && r.OnUnavailable != agent.OnUnavailableHold && r.OnUnavailable != agent.OnUnavailableAllow:
		return nil, errAt(join(at, "on_unavailable"), "want %s (the default) or %s, got %q", agent.OnUnavailableHold, agent.OnUnavailableAllow, r.OnUnavailable)
	case r.Reviewer == agent.ReviewerRules && len(r.Rules) == 0:
		return nil, errAt(join(at, "rules"), "the rules reviewer needs at least one rule")
	case r.Reviewer == agent.ReviewerModel && len(r.Rules) > 0:
		return nil, errAt(join(at, "rules"), "only the rules reviewer reads rules; the model reviewer judges by the policy")
	case len(r.Rules) > maxRules:
		return nil, errAt(join(at, "rules"), "%d rules; at most %d", len(r.Rules), maxRules)
	}
	spec := &agent.ReviewSpec{Policy: r.Policy, Reviewer: r.Reviewer, OnUnavailable: r.OnUnavailable}
	for i, rule := range r.Rules {
		p := index(join(at, "rules"), i)
		if rule.Reason == "" {
			return nil, errAt(join(p, "reason"), "say why the rule holds the action, as the user will read it")
		}
		if err := harness.CheckRule(rule.Expr); err != nil {
			return nil, errAt(join(p, "expr"), "%v", err)
		}
		spec.Rules = append(spec.Rules, agent.ReviewRule{Expr: rule.Expr, Reason: rule.Reason})
	}
	return spec, nil
}

func (a *Approval) domain(at string) (*agent.ApprovalSpec, error) {
	spec := &agent.ApprovalSpec{LimitMS: int(agent.DefaultApprovalLimit.Milliseconds())}
	if a.LimitMS != nil {
		if *a.LimitMS < 1 || *a.LimitMS > 3600000 {
			return nil, errAt(join(at, "limit_ms"), "want 1 to 3600000 (an hour), got %d", *a.LimitMS)
		}
		spec.LimitMS = *a.LimitMS
	}
	if len(a.Methods) > maxMethods {
		return nil, errAt(join(at, "methods"), "%d methods: at most %d", len(a.Methods), maxMethods)
	}
	for i, m := range a.Methods {
		p := index(join(at, "methods"), i)
		switch {
		case !requestMethod.MatchString(m):
			return nil, errAt(p, "want a request method in capitals (POST, PUT, PATCH, DELETE…), got %q", m)
		case slices.Contains(a.Methods[:i], m):
			return nil, errAt(p, "%q is listed twice", m)
		}
	}
	spec.Methods = slices.Clone(a.Methods)
	spec.Reauthorize = a.Reauthorize
	if len(a.Mutations) > maxMutations {
		return nil, errAt(join(at, "mutations"), "%d mutations: at most %d", len(a.Mutations), maxMutations)
	}
	for i, m := range a.Mutations {
		out, err := m.domain(index(join(at, "mutations"), i))
		if err != nil {
			return nil, err
		}
		spec.Mutations = append(spec.Mutations, out)
	}
	for i, c := range a.RequiredFor {
		p := index(join(at, "required_for"), i)
		switch {
		case c == requiredIrreversible && len(a.RequiredFor) > 1:
			return nil, errAt(p, "irreversible already covers commit and destruct; give it alone")
		case c == requiredIrreversible:
		case c != requiredCommit && c != requiredDestruct:
			return nil, errAt(p, "want %s, %s or %s, got %q", requiredIrreversible, requiredCommit, requiredDestruct, c)
		case slices.Contains(spec.For, agent.ActionClass(c)):
			return nil, errAt(p, "%q is listed twice", c)
		default:
			spec.For = append(spec.For, agent.ActionClass(c))
		}
	}
	if len(spec.For) == 2 { // commit and destruct: every irreversible action
		spec.For = nil
	}
	return spec, nil
}

// maxMutations bounds approval.mutations.
const maxMutations = 32

// bodyField is how a mutation names a body field: a JSON key, dotted for a nested object, or
// a form field.
var bodyField = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$`)

// domain maps m to the agent's mutation, checking each field at its path under at.
func (m Mutation) domain(at string) (agent.Mutation, error) {
	switch {
	case !requestMethod.MatchString(m.Method):
		return agent.Mutation{}, errAt(join(at, "method"), "want a request method in capitals (POST, PUT, PATCH, DELETE…), got %q", m.Method)
	case !strings.HasPrefix(m.Path, "/"):
		return agent.Mutation{}, errAt(join(at, "path"), "want a path pattern starting with / (/api/orders, /api/orders/*), got %q", m.Path)
	case m.Description == "":
		return agent.Mutation{}, errAt(join(at, "description"), "say what the request does, in the task's terms, as the approval card will show it")
	case len(m.Description) > maxText:
		return agent.Mutation{}, errAt(join(at, "description"), "at most %d bytes", maxText)
	}
	if _, err := path.Match(m.Path, ""); err != nil {
		return agent.Mutation{}, errAt(join(at, "path"), "%q is not a valid pattern: %v", m.Path, err)
	}
	for _, f := range []struct{ name, value string }{{"amount", m.Amount}, {"principal", m.Principal}, {"recipient", m.Recipient}} {
		if f.value != "" && !bodyField.MatchString(f.value) {
			return agent.Mutation{}, errAt(join(at, f.name), "want a body field's name (amount, order.total), got %q", f.value)
		}
	}
	return agent.Mutation(m), nil
}

// safeguardsText says what g gives irreversible actions, for the task's outline.
func safeguardsText(g *agent.Safeguards) string {
	var parts []string
	if r := g.Review; r != nil {
		unavailable := r.OnUnavailable
		if unavailable == "" {
			unavailable = agent.OnUnavailableHold
		}
		by := "review by " + r.Reviewer
		if r.Reviewer == agent.ReviewerRules {
			by += fmt.Sprintf(" (%d rule(s); %s when unavailable)", len(r.Rules), unavailable)
		} else {
			by += fmt.Sprintf(" (the run's models; %s when unavailable)", unavailable)
		}
		parts = append(parts, by)
	}
	if a := g.Approval; a != nil {
		of := "every irreversible action"
		if len(a.For) > 0 {
			classes := make([]string, len(a.For))
			for i, c := range a.For {
				classes[i] = string(c) + "s"
			}
			of = strings.Join(classes, " and ")
		}
		parts = append(parts, fmt.Sprintf("approval of %s within %d ms", of, a.LimitMS))
	}
	if g.Scripts != "" {
		parts = append(parts, "an agent's own scripts: "+g.Scripts)
	}
	return strings.Join(parts, "; ")
}
