package cli

import (
	"strings"
	"testing"

	"observatory/backend/agent"
)

// TestOutsideAgentsCannotLeaveTheGuard: under safeguards that require approval and
// --approve deny, a Puppeteer agent that books in a page it opened itself (browser.newPage())
// is guarded and recorded there: its save is held and refused, recorded with its inputs, and
// nothing reaches the lab. One that opens a browser context of its own, with or without a
// proxy of its own ("direct://", every host bypassed), is refused with an error it sees, and
// nothing reaches the lab either; the same with Playwright over CDP. One that saves with its own HTTP client, around the browser,
// is not done although the gate holds: the reason says nothing it did was observed.
func TestOutsideAgentsCannotLeaveTheGuard(t *testing.T) {
	needAgents(t)
	data := t.TempDir()
	t.Run("new-page", func(t *testing.T) {
		rows, file, errOut := runAgentOn(t, Env{}, approvalTask, data, "puppeteer-book.js", "new-page", []string{"saves-normally"}, "--approve", "deny")
		if r := rows[0]; r.Gate || r.Terminal == agent.Completed {
			t.Errorf("gate %v, %s (%s): want not done, nothing saved\n%s", r.Gate, r.Terminal, r.Reason, errOut)
		}
		held := heldSaves(t, file)
		if len(held) == 0 || held[0].Answer != agent.AnswerDeny {
			t.Fatalf("the new page's save was not held and denied: %+v", held)
		}
		if steps := observedSteps(t, file); len(steps) < 4 {
			t.Errorf("%d observed steps: the inputs in the agent's own page were not all recorded", len(steps))
		}
	})
	t.Run("around", func(t *testing.T) {
		rows, _, errOut := runAgentOn(t, Env{}, approvalTask, data, "puppeteer-book.js", "around", []string{"saves-normally"}, "--approve", "deny")
		r := rows[0]
		if !r.Gate || r.Terminal != agent.Ambiguous || !strings.Contains(r.Reason, "nothing the agent did was observed, yet the state changed") {
			t.Errorf("gate %v, %s (%s): want the gate holding, ambiguous, saying nothing was observed\n%s", r.Gate, r.Terminal, r.Reason, errOut)
		}
	})
	t.Run("playwright-new-page", func(t *testing.T) {
		rows, file, errOut := runAgentOn(t, Env{}, approvalTask, data, "playwright-book.js", "new-page", []string{"saves-normally"}, "--approve", "deny")
		if r := rows[0]; r.Gate || r.Terminal == agent.Completed {
			t.Errorf("gate %v, %s (%s): want not done, nothing saved\n%s", r.Gate, r.Terminal, r.Reason, errOut)
		}
		if held := heldSaves(t, file); len(held) == 0 || held[0].Answer != agent.AnswerDeny {
			t.Fatalf("the new page's save was not held and denied: %+v", held)
		}
	})
	for _, c := range []struct{ script, mode string }{
		{"puppeteer-book.js", "new-context"}, {"puppeteer-book.js", "proxy-context"}, {"playwright-book.js", "new-context"},
	} {
		t.Run(c.script+" "+c.mode, func(t *testing.T) {
			rows, file, errOut := runAgentOn(t, Env{}, approvalTask, data, c.script, c.mode, []string{"saves-normally"}, "--approve", "deny")
			r := rows[0]
			if r.Gate || r.Terminal == agent.Completed {
				t.Errorf("gate %v, %s (%s): want not done, nothing saved\n%s", r.Gate, r.Terminal, r.Reason, errOut)
			}
			if !strings.Contains(r.Reason, "status 5") || !strings.Contains(r.Reason, "Observatory refused Target.createBrowserContext") {
				t.Errorf("the agent did not see the refusal of its own context: %s", r.Reason)
			}
			if held := heldSaves(t, file); len(held) != 0 {
				t.Errorf("a save was sent: %+v", held)
			}
		})
	}
}
