package runfile

import (
	"slices"

	"observatory/backend/agent"
)

// A model planner's turns in a run file, mapped explicitly to and from the domain, so that
// import recomputes every verdict without calling any model.

type modelTurnV2 struct {
	Step         int           `json:"step"`
	Model        string        `json:"model"`
	Messages     int           `json:"messages"`
	Tokens       int           `json:"tokens"`
	GroundedSeq  int           `json:"grounded_seq,omitempty"`
	GroundedAtMS int64         `json:"grounded_at_ms"`
	Text         string        `json:"text,omitempty"`
	Calls        []modelCallV2 `json:"calls,omitempty"`
	InTokens     int64         `json:"in_tokens"`
	OutTokens    int64         `json:"out_tokens"`
	LatencyMS    int64         `json:"latency_ms"`
	CostUSD      float64       `json:"cost_usd"`
	Retries      int           `json:"retries,omitempty"`
	Notes        []string      `json:"notes,omitempty"`
	Compaction   *compactionV2 `json:"compaction,omitempty"`
	Error        string        `json:"error,omitempty"`
}

type modelCallV2 struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Outcome   string `json:"outcome"`
	Result    string `json:"result,omitempty"`
}

type compactionV2 struct {
	Messages     int    `json:"messages"`
	Summary      string `json:"summary"`
	TokensBefore int    `json:"tokens_before"`
	TokensAfter  int    `json:"tokens_after"`
}

func fromModelTurn(t agent.ModelTurn) modelTurnV2 {
	return modelTurnV2{Step: t.Step, Model: t.Model, Messages: t.Messages, Tokens: t.Tokens, GroundedSeq: t.GroundedSeq, GroundedAtMS: t.GroundedAtMS,
		Text: t.Text, Calls: mapSlice(t.Calls, func(c agent.ModelCall) modelCallV2 {
			return modelCallV2{ID: c.ID, Name: c.Name, Arguments: c.Arguments, Outcome: c.Outcome, Result: c.Result}
		}),
		InTokens: t.InTokens, OutTokens: t.OutTokens, LatencyMS: t.LatencyMS, CostUSD: t.CostUSD, Retries: t.Retries,
		Notes: slices.Clone(t.Notes), Compaction: ptr(t.Compaction, func(c agent.Compaction) compactionV2 {
			return compactionV2{Messages: c.Messages, Summary: c.Summary, TokensBefore: c.TokensBefore, TokensAfter: c.TokensAfter}
		}), Error: t.Error}
}

func (t modelTurnV2) toDomain() agent.ModelTurn {
	return agent.ModelTurn{Step: t.Step, Model: t.Model, Messages: t.Messages, Tokens: t.Tokens, GroundedSeq: t.GroundedSeq, GroundedAtMS: t.GroundedAtMS,
		Text: t.Text, Calls: mapSlice(t.Calls, func(c modelCallV2) agent.ModelCall {
			return agent.ModelCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments, Outcome: c.Outcome, Result: c.Result}
		}),
		InTokens: t.InTokens, OutTokens: t.OutTokens, LatencyMS: t.LatencyMS, CostUSD: t.CostUSD, Retries: t.Retries,
		Notes: slices.Clone(t.Notes), Compaction: ptr(t.Compaction, func(c compactionV2) agent.Compaction {
			return agent.Compaction{Messages: c.Messages, Summary: c.Summary, TokensBefore: c.TokensBefore, TokensAfter: c.TokensAfter}
		}), Error: t.Error}
}
