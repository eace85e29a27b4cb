package taskfile_test

import (
	"fmt"
	"reflect"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/taskfile"
)

// TestSafeguardsMapToTheDomain: the task's safeguards become every attempt's, an attempt's
// own replace them, and {} turns them off; approval's defaults are every irreversible action
// and a minute.
func TestSafeguardsMapToTheDomain(t *testing.T) {
	doc := fmt.Sprintf(minimal, `safeguards:
  review:
    policy: Nothing leaves the company.
    reviewer: rules
    rules:
      - {expr: 'page.fields.exists(f, f.value.contains("secret"))', reason: it shares a secret}
  approval: {}
attempts:
  - name: task-wide
  - name: destructs-only
    safeguards:
      approval: {required_for: [destruct], limit_ms: 5000, methods: [POST, PATCH]}
  - name: named-mutations
    safeguards:
      approval:
        reauthorize: true
        mutations:
          - {method: POST, path: /api/orders/*, description: Place an order, amount: order.total, principal: account}
  - name: by-model
    safeguards:
      review: {policy: Be kind., reviewer: model, on_unavailable: allow}
      approval: {required_for: [commit, destruct]}
  - name: none
    safeguards: {}
  - name: scripts-allowed
    safeguards: {scripts: allow}
`)
	s, err := taskfile.Parse("t.yaml", []byte(doc), "", taskfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rule := agent.ReviewRule{Expr: `page.fields.exists(f, f.value.contains("secret"))`, Reason: "it shares a secret"}
	want := map[string]*agent.Safeguards{
		"task-wide": {Review: &agent.ReviewSpec{Policy: "Nothing leaves the company.", Reviewer: agent.ReviewerRules, Rules: []agent.ReviewRule{rule}},
			Approval: &agent.ApprovalSpec{LimitMS: 60000}},
		"destructs-only": {Approval: &agent.ApprovalSpec{LimitMS: 5000, For: []agent.ActionClass{agent.ClassDestruct}, Methods: []string{"POST", "PATCH"}}},
		"named-mutations": {Approval: &agent.ApprovalSpec{LimitMS: 60000, Reauthorize: true, Mutations: []agent.Mutation{
			{Method: "POST", Path: "/api/orders/*", Description: "Place an order", Amount: "order.total", Principal: "account"}}}},
		"by-model": {Review: &agent.ReviewSpec{Policy: "Be kind.", Reviewer: agent.ReviewerModel, OnUnavailable: agent.OnUnavailableAllow},
			Approval: &agent.ApprovalSpec{LimitMS: 60000}},
		"none":            nil,
		"scripts-allowed": {Scripts: agent.ScriptsAllow},
	}
	for _, a := range s.Attempts() {
		if got := a.Config.Safeguards; !reflect.DeepEqual(got, want[a.Slug]) {
			t.Errorf("%s: safeguards %+v, want %+v", a.Slug, got, want[a.Slug])
		}
	}
	outline := []string{
		"task-wide: review by rules (1 rule(s); hold when unavailable); approval of every irreversible action within 60000 ms",
		"destructs-only: approval of destructs within 5000 ms",
		"named-mutations: approval of every irreversible action within 60000 ms",
		"by-model: review by model (the run's models; allow when unavailable); approval of every irreversible action within 60000 ms",
		"scripts-allowed: an agent's own scripts: allow",
	}
	if got := s.Outline().Safeguards; !reflect.DeepEqual(got, outline) {
		t.Errorf("outline %q, want %q", got, outline)
	}
}

// TestBadSafeguardsAreRefusedAtTheirPath checks every refusal of the safeguards section
// names the field: a rule that does not compile, or gives no bool, is refused where it is.
func TestBadSafeguardsAreRefusedAtTheirPath(t *testing.T) {
	rules := "    rules: [{expr: 'true', reason: r}]\n"
	tests := []struct{ name, yaml, want string }{
		{"a rule that does not compile", "safeguards:\n  review:\n    policy: p\n    reviewer: rules\n    rules:\n      - {expr: 'true', reason: r}\n      - {expr: 'pge.url == \"x\"', reason: r}\n",
			"at safeguards.review.rules[1].expr: ERROR: <input>:1:1: undeclared reference to 'pge'"},
		{"a rule that is not a bool", "safeguards:\n  review:\n    policy: p\n    reviewer: rules\n    rules: [{expr: action.kind, reason: r}]\n",
			"at safeguards.review.rules[0].expr: the rule gives string, want a bool"},
		{"a rule without a reason", "safeguards:\n  review:\n    policy: p\n    reviewer: rules\n    rules: [{expr: 'true', reason: ''}]\n",
			"at safeguards.review.rules[0].reason: say why"},
		{"no policy", "safeguards:\n  review:\n    reviewer: rules\n" + rules, "at safeguards.review.policy: state the policy"},
		{"an unknown reviewer", "safeguards:\n  review:\n    policy: p\n    reviewer: oracle\n" + rules, `at safeguards.review.reviewer: want rules (CEL rules over the action and the page) or model (the run's models), got "oracle"`},
		{"rules without one", "safeguards:\n  review:\n    policy: p\n    reviewer: rules\n", "at safeguards.review.rules: the rules reviewer needs at least one rule"},
		{"rules for the model", "safeguards:\n  review:\n    policy: p\n    reviewer: model\n" + rules, "at safeguards.review.rules: only the rules reviewer reads rules"},
		{"a bad on_unavailable", "safeguards:\n  review:\n    policy: p\n    reviewer: model\n    on_unavailable: retry\n", `at safeguards.review.on_unavailable: want hold (the default) or allow, got "retry"`},
		{"an unknown field", "safeguards:\n  review:\n    policy: p\n    reviewer: model\n    enabled: true\n", "at safeguards.review.enabled: unknown field"},
		{"a limit of zero", "safeguards:\n  approval: {limit_ms: 0}\n", "at safeguards.approval.limit_ms: want 1 to 3600000 (an hour), got 0"},
		{"a limit past an hour", "safeguards:\n  approval: {limit_ms: 3600001}\n", "at safeguards.approval.limit_ms: want 1 to 3600000"},
		{"an unknown class", "safeguards:\n  approval: {required_for: [commit, pay]}\n", `at safeguards.approval.required_for[1]: want irreversible, commit or destruct, got "pay"`},
		{"a class twice", "safeguards:\n  approval: {required_for: [destruct, destruct]}\n", `at safeguards.approval.required_for[1]: "destruct" is listed twice`},
		{"irreversible with another", "safeguards:\n  approval: {required_for: [irreversible, commit]}\n", "at safeguards.approval.required_for[0]: irreversible already covers commit and destruct"},
		{"a method in lower case", "safeguards:\n  approval: {methods: [POST, put]}\n", `at safeguards.approval.methods[1]: want a request method in capitals (POST, PUT, PATCH, DELETE…), got "put"`},
		{"a scripts policy not known", "safeguards: {scripts: sometimes}\n", `at safeguards.scripts: want allow, ask (the default) or deny, got "sometimes"`},
		{"a method twice", "safeguards:\n  approval: {methods: [POST, POST]}\n", `at safeguards.approval.methods[1]: "POST" is listed twice`},
		{"a mutation without a description", "safeguards:\n  approval: {mutations: [{method: POST, path: /api/orders}]}\n",
			`at safeguards.approval.mutations[0].description: say what the request does`},
		{"a mutation's path not a path", "safeguards:\n  approval: {mutations: [{method: POST, path: api, description: Order}]}\n",
			`at safeguards.approval.mutations[0].path: want a path pattern starting with /`},
		{"a mutation's bad pattern", "safeguards:\n  approval: {mutations: [{method: POST, path: '/api/[', description: Order}]}\n",
			`at safeguards.approval.mutations[0].path: "/api/[" is not a valid pattern`},
		{"a mutation's amount not a field", "safeguards:\n  approval: {mutations: [{method: POST, path: /o, description: Order, amount: 'a b'}]}\n",
			`at safeguards.approval.mutations[0].amount: want a body field's name`},
		{"a string for the section", "safeguards: on\n", "at safeguards: want an object"},
		{"an attempt's bad rule", "attempts:\n  - name: a\n    safeguards:\n      review: {policy: p, reviewer: rules, rules: [{expr: 'action.kind ==', reason: r}]}\n",
			"at attempts[0].safeguards.review.rules[0].expr: ERROR: <input>:1:15: Syntax error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			refused(t, "t.yaml", func() error {
				_, err := taskfile.Parse("t.yaml", []byte(fmt.Sprintf(minimal, tt.yaml)), "", taskfile.Options{})
				return err
			}, "t.yaml: "+tt.want)
		})
	}
}
