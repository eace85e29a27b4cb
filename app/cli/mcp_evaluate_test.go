//go:build linux

package cli

import (
	"strings"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
)

// scriptsBooking is the booking lab's task file with two attempts: one under the default
// scripts policy (ask), one whose safeguards allow the agent's scripts.
func scriptsBooking(t *testing.T) string {
	return bookingWith(t, `
  - name: asked
    fault: none
  - name: allowed
    fault: none
    safeguards: {scripts: allow}
`)
}

// TestMCPEvaluateGoesThroughTheHarness: browser_evaluate is a step like any action. Under
// the default scripts policy it waits for the user's approval, and denied it is a tool error
// with the page kept, the attempt going on; where the task allows scripts it runs, on the
// page or on the element a ref names, and answers its result in Playwright MCP's sections.
// Each is recorded with its code, classified a mutation, and its result is in the exported run.
func TestMCPEvaluateGoesThroughTheHarness(t *testing.T) {
	browsertest.Ready(t)
	dataDir := t.TempDir()
	cs, stop, _, _ := mcpOverHTTP(t, nil, scriptsBooking(t), "--data-dir", dataDir, "--no-video", "--approve", "deny")

	title := map[string]any{"function": "() => document.title"}
	text, res := callTool(t, cs, "browser_evaluate", title)
	if !res.IsError || !strings.Contains(text, "Approval asked: deny") || !strings.Contains(text, "- Page Title: Lab reservations") || strings.Contains(text, "ended") {
		t.Errorf("a script the user denied:\n%s", text)
	}
	if text, res = callTool(t, cs, "task_done", map[string]any{"done": false}); res.IsError {
		t.Fatalf("giving up: %s", text)
	}

	text, res = callTool(t, cs, "browser_evaluate", title)
	if res.IsError || !strings.Contains(text, "### Result") || !strings.Contains(text, `"Lab reservations"`) ||
		!strings.Contains(text, "await page.evaluate(\"() => document.title\");") {
		t.Errorf("a script the task allows:\n%s", text)
	}
	page, _ := callTool(t, cs, "browser_snapshot", nil)
	text, res = callTool(t, cs, "browser_evaluate", map[string]any{"function": "(el) => el.textContent", "element": "Reserve slot", "target": refOf(t, page, "button", "Reserve slot")})
	if res.IsError || !strings.Contains(text, `"Reserve slot"`) {
		t.Errorf("a script on an element:\n%s", text)
	}
	said := stop()
	run := sessionRun(t, dataDir)
	if len(run.Attempts) != 2 {
		t.Fatalf("%d attempts, want 2:\n%s", len(run.Attempts), said)
	}
	asked, allowed := run.Attempts[0], run.Attempts[1]
	if st := asked.Steps[0]; st.Action.Kind != agent.ActEvaluate || st.Action.Value != "() => document.title" ||
		len(st.Approvals) != 1 || st.Approvals[0].Answer != agent.AnswerDeny || st.Decision.Contract != agent.ContractMutate {
		t.Errorf("the denied script's step: %+v", st)
	}
	if len(allowed.Steps) < 2 || allowed.Steps[0].Action.Kind != agent.ActEvaluate || allowed.Steps[0].Error != "" || len(allowed.Steps[0].Approvals) != 0 ||
		allowed.Steps[0].Output != `"Lab reservations"` {
		t.Errorf("the allowed scripts' steps: %+v", allowed.Steps)
	}
}
