package model

import (
	"fmt"
	"strings"

	"observatory/backend/agent"
)

// summaryLines bounds the summary: older lines give way to newer ones.
const summaryLines = 60

// compact summarises older turns when the conversation's estimate exceeds ContextTokens. The
// intent stays first and word for word; the summary follows it; the turns kept start at a
// model message, so every tool result kept follows its call and no call kept loses its
// result. It returns the record of what it did, or nil when nothing needed summarising.
func (p *Planner) compact() *agent.Compaction {
	before := p.estimate(p.conv)
	if before <= p.cfg.ContextTokens {
		return nil
	}
	start := 1 // conv[0] is the intent
	if len(p.conv) > 1 && p.conv[1].Summary {
		start = 2
	}
	// The cuts are the model messages after start; the latest exchange is always kept.
	var cuts []int
	for i := start + 1; i < len(p.conv); i++ {
		if p.conv[i].Role == roleAssistant {
			cuts = append(cuts, i)
		}
	}
	if len(cuts) == 0 {
		return nil
	}
	target := p.cfg.ContextTokens * 3 / 5
	var prior string
	if start == 2 {
		prior = p.conv[1].Text
	}
	cut := cuts[len(cuts)-1]
	for _, c := range cuts {
		if p.estimate(p.summarised(prior, start, c)) <= target {
			cut = c
			break
		}
	}
	next := p.summarised(prior, start, cut)
	p.conv = next
	return &agent.Compaction{Messages: cut - start, Summary: next[1].Text, TokensBefore: before, TokensAfter: p.estimate(next)}
}

// summarised is the conversation with conv[start:cut] replaced by a summary after the
// intent, folding in the prior summary.
func (p *Planner) summarised(prior string, start, cut int) []message {
	s := message{Role: roleUser, Summary: true, Text: summarise(prior, p.conv[start:cut])}
	out := make([]message, 0, len(p.conv)-cut+2)
	out = append(out, p.conv[0], s)
	return append(out, p.conv[cut:]...)
}

// summaryHead opens every summary.
const summaryHead = "Summary of earlier turns (older messages were compacted to stay within the context budget; " +
	"the task above is unchanged and page observations are dropped):"

// summarise lists each tool call in msgs with its arguments and the first line of its result,
// and what the model wrote, after the lines of the prior summary; at most summaryLines.
func summarise(prior string, msgs []message) string {
	var lines []string
	if prior != "" {
		lines = strings.Split(strings.TrimPrefix(prior, summaryHead+"\n"), "\n")
	}
	at := map[string]int{} // call ID → its line
	for _, m := range msgs {
		if m.Role == roleAssistant {
			if t := strings.TrimSpace(m.Text); t != "" {
				lines = append(lines, "- model wrote: "+clip(oneLine(t), 160))
			}
			for _, c := range m.Calls {
				at[c.ID] = len(lines)
				lines = append(lines, fmt.Sprintf("- %s %s", c.Name, clip(c.Args, 200)))
			}
			continue
		}
		for _, r := range m.Results {
			if i, ok := at[r.CallID]; ok {
				lines[i] += " → " + clip(oneLine(r.Content), 160)
			}
		}
	}
	if len(lines) > summaryLines {
		dropped := len(lines) - summaryLines + 1
		lines = append([]string{fmt.Sprintf("- … %d earlier lines dropped", dropped)}, lines[dropped:]...)
	}
	return summaryHead + "\n" + strings.Join(lines, "\n")
}

func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// estimate is the estimated prompt size of a request with the given messages.
func (p *Planner) estimate(msgs []message) int {
	return estimateTokens(p.system, tools, msgs)
}
