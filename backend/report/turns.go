package report

import (
	"fmt"
	"strings"

	"observatory/backend/agent"
)

// turnView is one of a model planner's turns in words: its number, who answered, what it
// cost, what it wrote and called, and what the planner made of each call.
type turnView struct {
	N                         int
	Model, Facts, Text, Error string
	Calls                     []agent.ModelCall
	Notes                     []string
	Compaction                string
}

// turns are ts in words, in order.
func turns(ts []agent.ModelTurn) []turnView {
	out := make([]turnView, 0, len(ts))
	for i, t := range ts {
		v := turnView{N: i + 1, Model: t.Model, Facts: turnFacts(t), Text: t.Text, Error: t.Error, Calls: t.Calls, Notes: t.Notes}
		if c := t.Compaction; c != nil {
			v.Compaction = fmt.Sprintf("%d older messages summarised (%d → %d tokens): %s", c.Messages, c.TokensBefore, c.TokensAfter, c.Summary)
		}
		out = append(out, v)
	}
	return out
}

// turnFacts sums up a turn's request and usage: messages, tokens, latency, cost and retries;
// "" for a turn that sent nothing (planning that ended before asking).
func turnFacts(t agent.ModelTurn) string {
	if t.Messages == 0 && t.InTokens == 0 && t.OutTokens == 0 && t.LatencyMS == 0 && t.CostUSD == 0 && t.Retries == 0 && t.GroundedSeq == 0 {
		return ""
	}
	parts := []string{fmt.Sprintf("%d messages, about %d tokens sent", t.Messages, t.Tokens),
		fmt.Sprintf("%d in / %d out tokens", t.InTokens, t.OutTokens), fmt.Sprintf("%d ms", t.LatencyMS)}
	if t.CostUSD > 0 {
		parts = append(parts, fmt.Sprintf("$%.4f", t.CostUSD))
	}
	if t.Retries > 0 {
		parts = append(parts, fmt.Sprintf("%d retried", t.Retries))
	}
	if t.GroundedSeq > 0 {
		parts = append(parts, fmt.Sprintf("saw observation %d (%d ms)", t.GroundedSeq, t.GroundedAtMS))
	}
	return strings.Join(parts, " · ")
}
