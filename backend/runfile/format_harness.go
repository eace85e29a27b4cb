package runfile

import "observatory/backend/agent"

// The harness's records in a run file: reviews, approvals, reconciliations and the
// safeguards an attempt ran with, each mapped explicitly to and from the domain.

type reviewV2 struct {
	Reviewer  string  `json:"reviewer"`
	Verdict   string  `json:"verdict"`
	Reason    string  `json:"reason"`
	InTokens  int64   `json:"in_tokens,omitempty"`
	OutTokens int64   `json:"out_tokens,omitempty"`
	CostUSD   float64 `json:"cost_usd,omitempty"`
	Kept      bool    `json:"kept,omitempty"`
}

type approvalRequestV2 struct {
	Step       int       `json:"step"`
	Action     string    `json:"action"`
	Target     string    `json:"target"`
	Recipient  string    `json:"recipient,omitempty"`
	Amount     string    `json:"amount,omitempty"`
	Data       []fieldV2 `json:"data"`
	Principal  string    `json:"principal,omitempty"`
	Facts      []factV2  `json:"facts,omitempty"`
	Permanence string    `json:"permanence"`
	URL        string    `json:"url"`
	Screenshot string    `json:"screenshot,omitempty"`
	TargetBox  *boxV2    `json:"target_box,omitempty"`
	Hash       string    `json:"hash"`
	Again      string    `json:"again,omitempty"`
	// Effect, Compared and Why are the card's: what approving would do in the task's terms,
	// each field compared with what the task asked, and the rule that asked. Absent in older
	// files.
	Effect   string         `json:"effect,omitempty"`
	Compared []comparisonV2 `json:"compared,omitempty"`
	Why      string         `json:"why,omitempty"`
}

type comparisonV2 struct {
	Field   string `json:"field"`
	Asked   string `json:"asked"`
	Now     string `json:"now"`
	Differs string `json:"differs,omitempty"`
}

type mutationV2 struct {
	Method      string `json:"method"`
	Path        string `json:"path"`
	Description string `json:"description"`
	Amount      string `json:"amount,omitempty"`
	Principal   string `json:"principal,omitempty"`
	Recipient   string `json:"recipient,omitempty"`
}

type approvalV2 struct {
	Request    approvalRequestV2 `json:"request"`
	Answer     string            `json:"answer"`
	Note       string            `json:"note,omitempty"`
	AskedMS    int64             `json:"asked_ms"`
	AnsweredMS int64             `json:"answered_ms"`
	Void       bool              `json:"void,omitempty"`
	CommitHash string            `json:"commit_hash,omitempty"`
	// By and Refused came with the live channel's peer check; older files have neither.
	By      string            `json:"by,omitempty"`
	Refused []refusedAnswerV2 `json:"refused,omitempty"`
}

type refusedAnswerV2 struct {
	By   string `json:"by"`
	AtMS int64  `json:"at_ms"`
	Why  string `json:"why"`
}

type reconciliationV2 struct {
	OpID    string    `json:"op_id"`
	Query   string    `json:"query"`
	Answer  string    `json:"answer"`
	Found   int       `json:"found"`
	Outcome string    `json:"outcome"`
	Retry   *actionV2 `json:"retry,omitempty"`
}

type reviewRuleV2 struct {
	Expr   string `json:"expr"`
	Reason string `json:"reason"`
}

type reviewSpecV2 struct {
	Policy        string         `json:"policy"`
	Reviewer      string         `json:"reviewer"`
	Rules         []reviewRuleV2 `json:"rules,omitempty"`
	OnUnavailable string         `json:"on_unavailable,omitempty"`
}

type approvalSpecV2 struct {
	LimitMS     int          `json:"limit_ms"`
	For         []string     `json:"for,omitempty"`
	Methods     []string     `json:"methods,omitempty"`
	Reauthorize bool         `json:"reauthorize,omitempty"`
	Mutations   []mutationV2 `json:"mutations,omitempty"`
}

type safeguardsV2 struct {
	Review   *reviewSpecV2   `json:"review,omitempty"`
	Approval *approvalSpecV2 `json:"approval,omitempty"`
	Scripts  string          `json:"scripts,omitempty"`
}

// ptr maps a value that may be absent.
func ptr[T, U any](p *T, f func(T) U) *U {
	if p == nil {
		return nil
	}
	u := f(*p)
	return &u
}

func fromReview(r agent.Review) reviewV2 {
	return reviewV2{Reviewer: r.Reviewer, Verdict: r.Verdict, Reason: r.Reason, InTokens: r.InTokens, OutTokens: r.OutTokens, CostUSD: r.CostUSD, Kept: r.Kept}
}

func (r reviewV2) toDomain() agent.Review {
	return agent.Review{Reviewer: r.Reviewer, Verdict: r.Verdict, Reason: r.Reason, InTokens: r.InTokens, OutTokens: r.OutTokens, CostUSD: r.CostUSD, Kept: r.Kept}
}

func fromField(f agent.Field) fieldV2 {
	return fieldV2{Role: f.Role, Name: f.Name, Value: f.Value, Invalid: f.Invalid}
}

func (f fieldV2) toDomain() agent.Field {
	return agent.Field{Role: f.Role, Name: f.Name, Value: f.Value, Invalid: f.Invalid}
}

func fromApproval(a agent.Approval) approvalV2 {
	q := a.Request
	return approvalV2{Answer: string(a.Answer), Note: a.Note, AskedMS: a.AskedMS, AnsweredMS: a.AnsweredMS, Void: a.Void, CommitHash: a.CommitHash,
		By: a.By, Refused: mapSlice(a.Refused, func(r agent.RefusedAnswer) refusedAnswerV2 { return refusedAnswerV2(r) }),
		Request: approvalRequestV2{Step: q.Step, Action: q.Action, Target: q.Target, Recipient: q.Recipient, Amount: q.Amount,
			Data: mapSlice(q.Data, fromField), Principal: q.Principal, Facts: mapSlice(q.Facts, fromFact), Permanence: q.Permanence, URL: q.URL, Screenshot: q.Screenshot,
			TargetBox: ptr(q.TargetBox, fromBox), Hash: q.Hash, Again: q.Again, Effect: q.Effect, Why: q.Why,
			Compared: mapSlice(q.Compared, func(c agent.Comparison) comparisonV2 { return comparisonV2(c) })}}
}

func (a approvalV2) toDomain() agent.Approval {
	q := a.Request
	return agent.Approval{Answer: agent.ApprovalAnswer(a.Answer), Note: a.Note, AskedMS: a.AskedMS, AnsweredMS: a.AnsweredMS, Void: a.Void, CommitHash: a.CommitHash,
		By: a.By, Refused: mapSlice(a.Refused, func(r refusedAnswerV2) agent.RefusedAnswer { return agent.RefusedAnswer(r) }),
		Request: agent.ApprovalRequest{Step: q.Step, Action: q.Action, Target: q.Target, Recipient: q.Recipient, Amount: q.Amount,
			Data: mapSlice(q.Data, fieldV2.toDomain), Principal: q.Principal, Facts: mapSlice(q.Facts, factV2.toDomain), Permanence: q.Permanence, URL: q.URL, Screenshot: q.Screenshot,
			TargetBox: ptr(q.TargetBox, boxV2.toDomain), Hash: q.Hash, Again: q.Again, Effect: q.Effect, Why: q.Why,
			Compared: mapSlice(q.Compared, func(c comparisonV2) agent.Comparison { return agent.Comparison(c) })}}
}

func fromReconciliation(r agent.Reconciliation) reconciliationV2 {
	return reconciliationV2{OpID: r.OpID, Query: r.Query, Answer: r.Answer, Found: r.Found, Outcome: r.Outcome, Retry: ptr(r.Retry, fromAction)}
}

func (r reconciliationV2) toDomain() agent.Reconciliation {
	return agent.Reconciliation{OpID: r.OpID, Query: r.Query, Answer: r.Answer, Found: r.Found, Outcome: r.Outcome, Retry: ptr(r.Retry, actionV2.toDomain)}
}

func fromSafeguards(g agent.Safeguards) safeguardsV2 {
	return safeguardsV2{
		Scripts: g.Scripts,
		Review: ptr(g.Review, func(r agent.ReviewSpec) reviewSpecV2 {
			return reviewSpecV2{Policy: r.Policy, Reviewer: r.Reviewer, OnUnavailable: r.OnUnavailable,
				Rules: mapSlice(r.Rules, func(x agent.ReviewRule) reviewRuleV2 { return reviewRuleV2{Expr: x.Expr, Reason: x.Reason} })}
		}),
		Approval: ptr(g.Approval, func(a agent.ApprovalSpec) approvalSpecV2 {
			return approvalSpecV2{LimitMS: a.LimitMS, For: mapSlice(a.For, func(c agent.ActionClass) string { return string(c) }), Methods: a.Methods,
				Reauthorize: a.Reauthorize, Mutations: mapSlice(a.Mutations, func(m agent.Mutation) mutationV2 { return mutationV2(m) })}
		}),
	}
}

func (g safeguardsV2) toDomain() agent.Safeguards {
	return agent.Safeguards{
		Scripts: g.Scripts,
		Review: ptr(g.Review, func(r reviewSpecV2) agent.ReviewSpec {
			return agent.ReviewSpec{Policy: r.Policy, Reviewer: r.Reviewer, OnUnavailable: r.OnUnavailable,
				Rules: mapSlice(r.Rules, func(x reviewRuleV2) agent.ReviewRule { return agent.ReviewRule{Expr: x.Expr, Reason: x.Reason} })}
		}),
		Approval: ptr(g.Approval, func(a approvalSpecV2) agent.ApprovalSpec {
			return agent.ApprovalSpec{LimitMS: a.LimitMS, For: mapSlice(a.For, func(c string) agent.ActionClass { return agent.ActionClass(c) }), Methods: a.Methods,
				Reauthorize: a.Reauthorize, Mutations: mapSlice(a.Mutations, func(m mutationV2) agent.Mutation { return agent.Mutation(m) })}
		}),
	}
}
