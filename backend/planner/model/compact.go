package model

import (
	"fmt"
	"strings"

	"observatory/backend/agent"
)

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
	// Aim to free two fifths of what the turns may take beyond the fixed part (the system
	// prompt, the tools and the intent).
	floor := p.estimate(p.conv[:1])
	target := floor + (p.cfg.ContextTokens-floor)*3/5
	// The summary may take a third of what is left beyond the fixed part.
	room := max(800, (p.cfg.ContextTokens-floor)/3*4)
	var prior string
	if start == 2 {
		prior = p.conv[1].Text
	}
	cut := cuts[len(cuts)-1]
	for _, c := range cuts {
		if p.estimate(p.summarised(prior, start, c, room)) <= target {
			cut = c
			break
		}
	}
	next := p.summarised(prior, start, cut, room)
	p.conv = next
	return &agent.Compaction{Messages: cut - start, Summary: next[1].Text, TokensBefore: before, TokensAfter: p.estimate(next)}
}

// summarised is the conversation with conv[start:cut] replaced by a summary of at most room
// characters after the intent, folding in the prior summary.
func (p *Planner) summarised(prior string, start, cut, room int) []message {
	s := message{Role: roleUser, Summary: true, Text: summarise(prior, p.conv[start:cut], room)}
	out := make([]message, 0, len(p.conv)-cut+2)
	out = append(out, p.conv[0], s)
	return append(out, p.conv[cut:]...)
}

// summaryHead opens every summary.
const summaryHead = "Summary of earlier turns (older messages were compacted to stay within the context budget; " +
	"the task above is unchanged and page observations are dropped):"

// summarise lists each tool call in msgs with its arguments and the first line of its result,
// and what the model wrote, after the lines of the prior summary; the oldest lines give way
// when the summary would pass room characters.
func summarise(prior string, msgs []message, room int) string {
	var lines []string
	cut := false // lines were dropped already
	if prior != "" {
		lines = strings.Split(strings.TrimPrefix(prior, summaryHead+"\n"), "\n")
		if len(lines) > 0 && lines[0] == droppedLine {
			lines, cut = lines[1:], true
		}
	}
	at := map[string]int{} // call ID → its line
	for _, m := range msgs {
		if m.Role == roleAssistant {
			if t := strings.TrimSpace(m.Text); t != "" {
				lines = append(lines, "- model wrote: "+clip(oneLine(t), 120))
			}
			for _, c := range m.Calls {
				at[c.ID] = len(lines)
				lines = append(lines, fmt.Sprintf("- %s %s", c.Name, clip(c.Args, 160)))
			}
			continue
		}
		for _, r := range m.Results {
			if i, ok := at[r.CallID]; ok {
				lines[i] += " → " + clip(oneLine(r.Content), 120)
			}
		}
	}
	size := len(summaryHead)
	for _, l := range lines {
		size += len(l) + 1
	}
	dropped := 0
	for size > room && dropped < len(lines) {
		size -= len(lines[dropped]) + 1
		dropped++
	}
	if cut || dropped > 0 {
		lines = append([]string{droppedLine}, lines[dropped:]...)
	}
	return summaryHead + "\n" + strings.Join(lines, "\n")
}

// droppedLine opens a summary whose oldest lines gave way.
const droppedLine = "- … (older lines dropped)"

func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// estimate is the estimated prompt size of a request with the given messages.
func (p *Planner) estimate(msgs []message) int {
	return estimateTokens(p.system, tools, msgs)
}
