package model

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// TestCompaction runs a long scripted conversation under a small context budget through both
// APIs: every request keeps the intent first and word for word, no tool result is separated
// from its call, and each compaction is recorded with the tokens before and after.
func TestCompaction(t *testing.T) {
	const intent = `Book North lab for "Spectral scan" — the 2nd slot, ≤ 2 h; don't touch South lab.`
	const steps = 14
	for _, a := range apis {
		t.Run(a.name, func(t *testing.T) {
			replies := make([]reply, steps)
			for i := range replies {
				replies[i] = a.call(fmt.Sprintf("call_%d", i+1), "fill",
					fmt.Sprintf(`{"target":{"label":"Note %d"},"value":"%s","reason":"Step %d of the long task."}`, i+1, strings.Repeat("x", 200), i+1))
			}
			f := newScripted(t, a, replies...)
			p, _ := planner(t, intent, Config{}, f)
			p.cfg.ContextTokens = p.estimate(p.conv) + 1200
			var history []agent.Step
			obs := page(0)
			for i := range steps {
				prop, err := p.Next(context.Background(), obs, history)
				if err != nil {
					t.Fatalf("step %d: %v", i+1, err)
				}
				next := page(int64(i+1) * 100)
				history = append(history, ran(i, prop, obs, next))
				obs = next
			}
			var compactions []agent.Compaction
			for _, tu := range p.Turns() {
				if tu.Compaction != nil {
					compactions = append(compactions, *tu.Compaction)
				}
			}
			if len(compactions) < 2 {
				t.Fatalf("%d compactions in %d steps, want several", len(compactions), steps)
			}
			for _, c := range compactions {
				if c.Messages == 0 || c.TokensAfter >= c.TokensBefore || c.TokensBefore <= p.cfg.ContextTokens || c.TokensAfter > p.cfg.ContextTokens ||
					!strings.Contains(c.Summary, "- fill ") || !strings.Contains(c.Summary, "→ Done: prepare action") {
					t.Errorf("compaction %+v", c)
				}
			}
			t.Logf("%d compactions; the last: %d messages, ~%d → ~%d tokens", len(compactions), compactions[len(compactions)-1].Messages,
				compactions[len(compactions)-1].TokensBefore, compactions[len(compactions)-1].TokensAfter)
			last := compactions[len(compactions)-1].Summary
			if !strings.Contains(last, `"Note 1"`) && !strings.HasPrefix(strings.TrimPrefix(last, summaryHead+"\n"), droppedLine) {
				t.Errorf("the latest summary lost the first step without saying so: %s", last)
			}
			for i, r := range f.requests() {
				if r.firstUser() != intent {
					t.Fatalf("request %d starts with %q, not the intent", i+1, r.firstUser())
				}
				r.checkPairs(t)
				if i > 0 && lastResult(r).ID != fmt.Sprintf("call_%d", i) {
					t.Errorf("request %d answers %q last, want the previous call", i+1, lastResult(r).ID)
				}
			}
			// Uncompacted, the last request would carry the intent, the first page and three
			// items (call, result, page) per step since.
			if n, full := len(f.requests()[steps-1].Items), 2+3*(steps-1); n >= full/2 {
				t.Errorf("the last request carries %d items of the %d it would without compaction", n, full)
			}
		})
	}
}

// TestCompactionCut checks where compaction cuts on hand-made conversations: always just
// before a model message, keeping the latest exchange, and folding an earlier summary in.
func TestCompactionCut(t *testing.T) {
	call := func(id string) message {
		return message{Role: roleAssistant, Calls: []toolCall{{ID: id, Name: "click", Args: `{"target":{"text":"` + strings.Repeat("y", 400) + `"}}`}}}
	}
	result := func(id string) message {
		return message{Role: roleUser, Results: []toolResult{{CallID: id, Content: "Done: " + id}}, Text: strings.Repeat("page ", 200)}
	}
	p := newPlanner("the intent", Config{}, nil)
	p.conv = append(p.conv, message{Role: roleUser, Text: "first page"}, call("a"), result("a"), call("b"), result("b"), call("c"), result("c"))
	p.cfg.ContextTokens = p.estimate(p.conv[:1]) + 200
	c := p.compact()
	if c == nil {
		t.Fatal("nothing compacted")
	}
	if p.conv[0].Text != "the intent" || !p.conv[1].Summary || p.conv[2].Role != roleAssistant || p.conv[2].Calls[0].ID != "c" || len(p.conv) != 4 {
		t.Fatalf("after compaction: %+v", p.conv)
	}
	if c.Messages != 5 || !strings.Contains(c.Summary, "→ Done: a") || !strings.Contains(c.Summary, "→ Done: b") {
		t.Errorf("compaction %+v", c)
	}
	p.conv = append(p.conv, call("d"), result("d"))
	if c := p.compact(); c == nil || !strings.Contains(c.Summary, "→ Done: a") || !strings.Contains(c.Summary, "→ Done: c") ||
		strings.Count(c.Summary, summaryHead) != 1 || p.conv[2].Calls[0].ID != "d" {
		t.Errorf("second compaction %+v; conversation %+v", c, p.conv)
	}
}
