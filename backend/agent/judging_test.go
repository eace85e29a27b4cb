package agent_test

import (
	"encoding/json"
	"testing"

	"observatory/backend/agent"
)

// TestJudgesSpendCountsInTheRunBudget: what the judges' answers record as spent (the ones
// that gave no verdict too) is what they cost, and charged to a run it counts against its
// token budget: once past it, the run is exhausted and no model may be asked again.
func TestJudgesSpendCountsInTheRunBudget(t *testing.T) {
	paid, _ := json.Marshal(agent.JudgeReply{Model: "openai:m", Done: true, Reason: "ok", InTokens: 120, OutTokens: 30, CostUSD: 0.01, Retries: 1})
	failed, _ := json.Marshal(agent.JudgeReply{Model: "openai:m", InTokens: 100, OutTokens: 0, CostUSD: 0.002})
	answers := []agent.Answer{
		{Condition: "judge", Kind: agent.AnswerJudge, Raw: paid},
		{Condition: "judge2", Kind: agent.AnswerJudge, Raw: failed, Error: "the model did not answer with one call of verdict"},
		{Condition: "record", Kind: "http", Raw: json.RawMessage(`{"status":200,"in_tokens":999}`)},
	}
	s := agent.JudgeSpend(answers)
	if s.Tokens != 250 || s.MoneyUSD < 0.0119 || s.MoneyUSD > 0.0121 || s.Retries != 1 {
		t.Errorf("spend %+v, want 250 tokens, $0.012 and one retry", s)
	}
	if v := agent.JudgeVerdict(&answers[1]); v.Done || v.Unconfirmed == "" {
		t.Errorf("a judge that gave no verdict: %+v, want could not confirm", v)
	}
	pot := agent.NewRunBudget(agent.Budgets{Tokens: 300})
	pot.Charge(s)
	if pot.MayPlan() != nil || pot.Spent().Tokens != 250 {
		t.Fatalf("after 250 of 300 tokens: %v, spent %+v", pot.MayPlan(), pot.Spent())
	}
	pot.Charge(s)
	if e := pot.MayPlan(); e == nil || e.Budget != agent.BudgetTokens || pot.Spent().Tokens != 500 {
		t.Errorf("after 500 of 300 tokens: %v, spent %+v; want the run's tokens exhausted", e, pot.Spent())
	}
	var none *agent.RunBudget
	none.Charge(s) // a run without budgets bounds nothing
	if none.MayPlan() != nil {
		t.Error("a nil run budget refused")
	}
}
