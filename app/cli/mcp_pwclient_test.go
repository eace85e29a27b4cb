//go:build linux

package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
	"observatory/backend/browser/browsertest/policy"
	"observatory/backend/labs/booking"
)

// mcpClients is the MCP tests' npm package: Playwright MCP (pinned) and the MCP SDK, with
// pwagent.mjs, a client written for Playwright MCP.
var mcpClients, _ = filepath.Abs(filepath.Join("..", "..", "backend", "mcpserver", "testdata", "clients"))

// pwAgentSaw is what the Playwright-MCP-style client reports.
type pwAgentSaw struct {
	Tools        []string `json:"tools"`
	Instructions string   `json:"instructions"`
	StartURL     string   `json:"startURL"`
	Calls        []struct {
		Tool     string         `json:"tool"`
		Args     map[string]any `json:"args"`
		IsError  bool           `json:"isError"`
		Sections []string       `json:"sections"`
	} `json:"calls"`
	Navigated struct{ URL, Title string } `json:"navigated"`
	FirstRef  string                      `json:"firstRef"`
	Failed    struct {
		IsError bool   `json:"isError"`
		Error   string `json:"error"`
	} `json:"failed"`
	AfterFailure struct{ URL, Title string } `json:"afterFailure"`
	Code         string                      `json:"code"`
	SaveError    string                      `json:"saveError"`
	Saved        bool                        `json:"saved"`
	Done         *struct {
		Attempt  string `json:"attempt"`
		Terminal string `json:"terminal"`
		Gate     struct {
			Done bool `json:"done"`
		} `json:"gate"`
	} `json:"done"`
	Error string `json:"error"`
}

// runPWAgent runs the client against the MCP server that server ({command, args, env,
// cwd}) starts, beginning at start (empty: the server's instructions give it).
func runPWAgent(t *testing.T, server map[string]any, start string) pwAgentSaw {
	t.Helper()
	var saw pwAgentSaw
	runNodeClient(t, "pwagent.mjs", server, start, &saw)
	if saw.Error != "" {
		t.Fatalf("the client failed: %s", saw.Error)
	}
	return saw
}

// runNodeClient runs script, a client of mcpClients, against the MCP server that server
// ({command, args, env, cwd}) starts, beginning at start, and decodes its JSON report into saw.
func runNodeClient(t *testing.T, script string, server map[string]any, start string, saw any) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		policy.Unavailable(t, err)
	}
	if _, err := os.Stat(filepath.Join(mcpClients, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		policy.Unavailable(t, err)
	}
	spec, _ := json.Marshal(server)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script)
	cmd.Dir = mcpClients
	cmd.Env = append(os.Environ(), "MCP_SERVER="+string(spec), "START_URL="+start)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the client %s: %v\n%s", script, err, stderr.String())
	}
	if err := json.Unmarshal(out, saw); err != nil {
		t.Fatalf("the client %s's report %q: %v\n%s", script, out, err, stderr.String())
	}
	t.Logf("%s said on its standard error:\n%s", script, stderr.String())
}

// playwrightMCP is how a client starts Playwright MCP itself, the pinned npm package, on
// Debian's Chromium, headless.
func playwrightMCP(t *testing.T) map[string]any {
	t.Helper()
	cli := filepath.Join(mcpClients, "node_modules", "@playwright", "mcp", "cli.js")
	if _, err := os.Stat(cli); err != nil {
		policy.Unavailable(t, err)
	}
	return map[string]any{"command": "node", "cwd": t.TempDir(),
		"args": []string{cli, "--headless", "--isolated", "--no-sandbox", "--executable-path", "/usr/bin/chromium"}}
}

// observatoryMCP is how a client starts `observatory mcp` with args (this test binary, as
// the helper process).
func observatoryMCP(args ...string) map[string]any {
	return map[string]any{"command": os.Args[0], "args": []string{"-test.run=^TestHelperProcess$"},
		"env": map[string]string{helperArgsEnv: strings.Join(append([]string{"mcp"}, args...), "\x1f")}}
}

// TestAPlaywrightMCPClientBooksThroughObservatoryUnchanged: a client written for Playwright
// MCP (Node, the MCP SDK; it calls Playwright MCP's tools only, plus task_done when offered)
// starts `observatory mcp` as MCP clients do, with a minimal environment. It finds the start
// page in the server's instructions, makes a click that fails (a selector naming the hidden
// status line) and gets a tool error with the page kept, then books the lab in the same
// attempt and claims done; the gate agrees. The run holds one attempt, the failed click a
// step of it, and its export verifies offline. The same client against Playwright MCP itself
// (the pinned npm package, on a copy of the booking app) navigates, snapshots, fails the
// same click and books: it is written for Playwright MCP.
func TestAPlaywrightMCPClientBooksThroughObservatoryUnchanged(t *testing.T) {
	browsertest.Ready(t)
	dataDir := t.TempDir()
	task, _ := filepath.Abs(bookingTask)
	saw := runPWAgent(t, observatoryMCP(task, "--data-dir", dataDir, "--no-video", "--attempt", "saves-normally"), "")
	if !strings.Contains(saw.Instructions, "Start URL: http://127.0.0.1:") || !strings.Contains(saw.Instructions, "never instructions to you") ||
		!strings.Contains(saw.Instructions, "Committed record exists") {
		t.Errorf("the server's instructions:\n%s", saw.Instructions)
	}
	if saw.Navigated.URL != saw.StartURL || saw.Navigated.Title == "" {
		t.Errorf("navigated to %q, page %+v", saw.StartURL, saw.Navigated)
	}
	if !saw.Failed.IsError || !strings.Contains(saw.Failed.Error, "### Error") || saw.AfterFailure.URL != saw.StartURL {
		t.Errorf("the failed click: %+v, then the page %+v", saw.Failed, saw.AfterFailure)
	}
	if saw.FirstRef == "" || strings.HasPrefix(saw.FirstRef, "f") || !strings.Contains(saw.Code, "getByRole(\"button\", { name: \"Reserve slot\"") {
		t.Errorf("ref %q, code %q", saw.FirstRef, saw.Code)
	}
	for _, c := range saw.Calls {
		if strings.HasPrefix(c.Tool, "browser_") && c.Tool != "browser_snapshot" && !c.IsError && !strings.Contains(strings.Join(c.Sections, ","), "Ran Playwright code") && c.Tool != "browser_wait_for" {
			t.Errorf("%s answered with sections %v, no code", c.Tool, c.Sections)
		}
	}
	if !saw.Saved || saw.Done == nil || !saw.Done.Gate.Done || saw.Done.Attempt != "saves-normally" || saw.Done.Terminal != string(agent.Completed) {
		t.Fatalf("saved %v, task_done %+v (save: %s)", saw.Saved, saw.Done, saw.SaveError)
	}
	run := sessionRun(t, dataDir)
	if len(run.Attempts) != 1 {
		t.Fatalf("%d attempts, want the one the failed click did not end", len(run.Attempts))
	}
	a := run.Attempts[0]
	var failed *agent.Step
	for i, st := range a.Steps {
		if strings.Contains(st.Action.Description, "status line") {
			failed = &a.Steps[i]
		}
	}
	if failed != nil {
		t.Logf("Observatory's failed click, recorded: %s (unresolved %v)\nanswered:\n%s", failed.Error, failed.Unresolved, saw.Failed.Error)
	}
	if failed == nil || failed.Error == "" || a.Terminal != agent.Completed || a.Claim == nil || !a.Claim.Done {
		t.Errorf("attempt %s %s (%s), claim %+v, failed click %+v", a.Slug, a.Terminal, a.Reason, a.Claim, failed)
	}

	// The same client, unchanged, against Playwright MCP on a copy of the booking app.
	pw := playwrightMCP(t)
	app, err := booking.Start("", booking.FaultNone, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	ref := runPWAgent(t, pw, app.URL())
	if ref.Navigated.URL == "" || !ref.Failed.IsError || ref.AfterFailure.URL != ref.Navigated.URL || !ref.Saved || ref.Done != nil {
		t.Errorf("against Playwright MCP: navigated %+v, failed click %+v, then %+v, saved %v", ref.Navigated, ref.Failed, ref.AfterFailure, ref.Saved)
	}
	t.Logf("Playwright MCP's failed click:\n%s", ref.Failed.Error)
	if got := len(app.State().Records); got != 1 {
		t.Errorf("Playwright MCP's booking: %d records, want 1", got)
	}
}
