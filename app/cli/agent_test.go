package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest/policy"
)

// agentsDir holds the test agents, written with Puppeteer and Playwright from npm.
var agentsDir = filepath.Join("..", "..", "backend", "outside", "testdata", "agents")

// needAgents skips (or, where a browser is required, fails) when node or the agents' npm
// packages are missing.
func needAgents(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		policy.Unavailable(t, err)
	}
	if _, err := os.Stat(filepath.Join(agentsDir, "node_modules", "puppeteer-core")); err != nil {
		policy.Unavailable(t, err)
	}
}

// runAgent runs the booking task file's attempts with an outside agent (node SCRIPT, in mode),
// exporting the run, and returns the rows, the run file and what was printed.
func runAgent(t *testing.T, dataDir, script, mode string, attempts []string, extra ...string) ([]jsonRow, string, string) {
	t.Helper()
	return runAgentOn(t, Env{}, filepath.Join("..", "..", "backend", "labs", "booking", "task.yaml"), dataDir, script, mode, attempts, extra...)
}

// runAgentOn is runAgent on the task file task, with env's standard input and error.
func runAgentOn(t *testing.T, env Env, task, dataDir, script, mode string, attempts []string, extra ...string) ([]jsonRow, string, string) {
	t.Helper()
	out, file, errOut := execAgent(t, env, task, dataDir, script, mode, attempts, append(extra, "--json")...)
	var rows []jsonRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%s %s: %v\n%s", script, mode, err, out)
	}
	return rows, file, errOut
}

// execAgent runs the task file task's attempts with an outside agent (node SCRIPT, in mode),
// exporting the run, and returns what was printed and the run file.
func execAgent(t *testing.T, env Env, task, dataDir, script, mode string, attempts []string, extra ...string) (out, file, errOut string) {
	t.Helper()
	t.Setenv("AGENT_MODE", mode)
	file = filepath.Join(t.TempDir(), "run.json")
	task, err := filepath.Abs(task)
	if err != nil {
		t.Fatal(err)
	}
	script, _ = filepath.Abs(filepath.Join(agentsDir, script))
	args := []string{"run", task, "--no-video", "--export", file, "--data-dir", dataDir}
	for _, a := range attempts {
		args = append(args, "--attempt", a)
	}
	args = append(append(args, extra...), "--agent", "--", "node", script)
	var stdout bytes.Buffer
	if env.Stderr == nil {
		env.Stderr = &bytes.Buffer{}
	}
	env.Stdout, env.Assets = &stdout, fstest.MapFS{}
	code := Execute(context.Background(), env, args)
	errOut = fmt.Sprint(env.Stderr)
	if !ranThrough(code, errOut) {
		t.Fatalf("%s %s: exit %d\n%s", script, mode, code, errOut)
	}
	noAgentLeft(t, script)
	return stdout.String(), file, errOut
}

// noAgentLeft fails when a process of script is still running (Linux, which lists them).
func noAgentLeft(t *testing.T, script string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		return
	}
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), script) {
			t.Errorf("the agent is still running after its run: %s %q", p, b)
		}
	}
}

// TestOutsideAgentsJudgedFromOutside: agents written with Puppeteer and Playwright (over CDP)
// book the room in the browser Observatory hands them; their inputs are recorded as observed
// steps, the gate judges what they leave, and their claim is marked wrong where the gate
// disagrees. The run files verify offline.
func TestOutsideAgentsJudgedFromOutside(t *testing.T) {
	needAgents(t)
	dir := t.TempDir()
	rows, file, _ := runAgent(t, dir, "puppeteer-book.js", "", []string{"saves-normally", "notice-nothing-saved", "wrong-room"})
	want := map[string]struct {
		gate     bool
		terminal agent.Terminal
	}{"saves-normally": {true, agent.Completed}, "notice-nothing-saved": {false, agent.Failed}, "wrong-room": {false, agent.Failed}}
	for _, r := range rows {
		w := want[r.Attempt]
		claim := r.Signals[agent.ClaimID]
		if r.Gate != w.gate || r.Terminal != w.terminal || claim == nil || !*claim {
			t.Errorf("%s: gate %v, %s, claim %v; want gate %v, %s, claim done", r.Attempt, r.Gate, r.Terminal, claim, w.gate, w.terminal)
		}
		if wrong := slices.Contains(r.Wrong, agent.ClaimID); wrong == w.gate {
			t.Errorf("%s: the claim marked wrong %v with the gate %v (%v)", r.Attempt, wrong, r.Gate, r.Wrong)
		}
	}
	steps := observedSteps(t, file)
	if len(steps) < 4 {
		t.Fatalf("%d observed steps, want at least the 4 inputs of each attempt", len(steps))
	}
	// A before or after read at an input has a screenshot only where a frame Observatory took
	// shows the same page; the page before the first input and after the last were looked at.
	for _, s := range steps[:4] {
		if s.Action.Target.Role == "" || s.TargetBox == nil || s.Before.Seq == 0 || s.After.Seq == 0 {
			t.Errorf("observed step %q: target %v, box %v, before and after %d %d", s.Action.Description, s.Action.Target, s.TargetBox, s.Before.Seq, s.After.Seq)
		}
	}
	if steps[0].Before.Screenshot == "" || steps[3].After.Screenshot == "" {
		t.Errorf("the page before the first input and after the last have no screenshot: %q %q", steps[0].Before.Screenshot, steps[3].After.Screenshot)
	}
	if code, _, errOut := run(t, "verify", file); code != 0 {
		t.Errorf("the run file does not verify: %s", errOut)
	}
	rerunReproduces(t, dir, want)

	rows, file, _ = runAgent(t, dir, "playwright-book.js", "", []string{"saves-normally"})
	if r := rows[0]; !r.Gate || r.Terminal != agent.Completed || len(r.Wrong) != 0 {
		t.Errorf("Playwright over CDP: gate %v, %s, wrong %v: %s", r.Gate, r.Terminal, r.Wrong, r.Reason)
	}
	if len(observedSteps(t, file)) < 4 {
		t.Errorf("Playwright over CDP: its inputs were not observed")
	}

	t.Setenv("AGENT_CONNECT", "ws") // OBSERVATORY_WS_ENDPOINT, the browser's DevTools WebSocket
	rows, file, _ = runAgent(t, dir, "playwright-book.js", "", []string{"saves-normally"})
	if r := rows[0]; !r.Gate || r.Terminal != agent.Completed || len(r.Wrong) != 0 {
		t.Errorf("Playwright over the DevTools WebSocket: gate %v, %s, wrong %v: %s", r.Gate, r.Terminal, r.Wrong, r.Reason)
	}
	if len(observedSteps(t, file)) < 4 {
		t.Errorf("Playwright over the DevTools WebSocket: its inputs were not observed")
	}
}

// rerunReproduces reruns the newest run of dataDir, without its agent, and checks each
// attempt ends as want says.
func rerunReproduces(t *testing.T, dataDir string, want map[string]struct {
	gate     bool
	terminal agent.Terminal
}) {
	t.Helper()
	_, out, _ := run(t, "runs", "--json", "--data-dir", dataDir)
	var runs []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(out), &runs); err != nil || len(runs) == 0 {
		t.Fatalf("runs: %v %s", err, out)
	}
	task := filepath.Join("..", "..", "backend", "labs", "booking", "task.yaml")
	code, out, errOut := run(t, "rerun", runs[0].ID, "--task", task, "--no-video", "--data-dir", dataDir)
	if code != 0 {
		t.Fatalf("rerun: exit %d: %s", code, errOut)
	}
	for slug, w := range want {
		gate := "not done"
		if w.gate {
			gate = "done"
		}
		found := false
		for _, line := range strings.Split(out, "\n") {
			fields := strings.Fields(line)
			if len(fields) > 2 && fields[0] == slug {
				found = true
				cells := strings.Join(fields[:len(fields)-1], " ")
				if fields[len(fields)-1] != string(w.terminal) || !strings.HasSuffix(cells, " "+gate) || (w.gate && strings.HasSuffix(cells, " not done")) {
					t.Errorf("rerun of %s: %q, want the gate %s and %s", slug, line, gate, w.terminal)
				}
			}
		}
		if !found {
			t.Errorf("rerun: no row for %s in\n%s", slug, out)
		}
	}
}

// TestOutsideAgentsEndHonestly: an agent that opens a second tab, navigates off the task's
// origins, hangs, crashes (ambiguous once its page has saved) or closes the browser ends as it
// should, nothing of it left running and the store still readable; the inputs and the traffic
// of the tab it opened are recorded.
func TestOutsideAgentsEndHonestly(t *testing.T) {
	needAgents(t)
	dir := t.TempDir()
	for _, c := range []struct {
		mode     string
		attempt  string
		extra    []string
		terminal agent.Terminal
		reason   string
	}{
		{"second-tab", "saves-normally", nil, agent.Completed, ""},
		{"off-origin", "saves-normally", nil, agent.Completed, ""},
		{"claim-file", "saves-normally", nil, agent.Completed, ""},
		{"hang", "saves-normally", []string{"--time-limit", "3s"}, agent.Exhausted, "time limit"},
		{"crash", "saves-normally", nil, agent.Failed, "status 3"},
		// Reported by the error it threw, not by Node's version line after it.
		{"throw", "saves-normally", nil, agent.Failed, "the agent process exited with status 1: TypeError: no reservation dialog"},
		{"crash-after-save", "saves-normally", nil, agent.Ambiguous, "status 4"},
		// The page said saved and nothing was: from outside, the save it sent may have
		// crossed all the same.
		{"crash-after-save", "notice-nothing-saved", nil, agent.Ambiguous, "POST http://127.0.0.1"},
		{"close", "saves-normally", nil, agent.Failed, ""},
	} {
		t.Run(c.mode+"/"+c.attempt, func(t *testing.T) {
			rows, file, _ := runAgent(t, dir, "puppeteer-book.js", c.mode, []string{c.attempt}, c.extra...)
			r := rows[0]
			if r.Terminal != c.terminal || !strings.Contains(r.Reason, c.reason) {
				t.Errorf("%s: %s (%s), want %s with %q", c.mode, r.Terminal, r.Reason, c.terminal, c.reason)
			}
			if strings.Contains(r.Reason, "plan") || strings.Contains(r.Reason, "propose") {
				t.Errorf("%s: an agent proposes nothing, yet: %s", c.mode, r.Reason)
			}
			all := attemptSteps(t, file)
			steps := observedSteps(t, file)
			switch c.mode {
			case "off-origin":
				blocked := false
				for _, s := range steps {
					blocked = blocked || slices.ContainsFunc(s.Blocked, func(b string) bool { return strings.Contains(b, "example.invalid") })
				}
				if !blocked {
					t.Errorf("off-origin: no step records the blocked navigation: %+v", steps)
				}
			case "second-tab":
				// The inputs made in the tab the agent opened are recorded, in order, and the
				// one made back in the first tab after them.
				var got []string
				for _, s := range steps {
					got = append(got, s.Action.Description)
				}
				want := []string{"click button[Reserve slot]", "Fill textbox[Reservation title]", `Select "north" in combobox[Room]`,
					"click button[Save reservation]", "Press Escape on button[Reserve slot]"}
				if last := all[len(all)-1]; last.Action.Kind != agent.ActVerify {
					t.Errorf("second-tab: the last step is %q, want the look at the page the agent left", last.Action.Description)
				}
				if !slices.Equal(got, want) {
					t.Errorf("second-tab: observed steps %q, want %q", got, want)
				}
				// The second tab's traffic is recorded with the page's own: its save, on the
				// step of the input made back in the first tab at the latest.
				saved := false
				for _, s := range steps {
					saved = saved || slices.ContainsFunc(s.Traffic.Requests, func(r agent.Request) bool {
						return r.Method == "POST" && strings.HasSuffix(r.URL, "/api/reservations") && r.Status == 200
					})
				}
				if !saved {
					t.Errorf("second-tab: no step records the save the agent made in the second tab: %+v", steps)
				}
			case "crash":
				// Nothing was sent that could change the app: the crash is a plain failure.
				if strings.Contains(r.Reason, "may have crossed") {
					t.Errorf("crash: %s", r.Reason)
				}
			case "crash-after-save":
				// It crashed after its page sent the save: not failed, not completed, and the
				// reason says why: the effect landed, or else a commit may have crossed.
				landed := c.attempt == "saves-normally"
				if strings.Contains(r.Reason, "the requested effect landed") != landed || !strings.Contains(r.Reason, "/api/") ||
					!strings.Contains(r.Reason, "so a commit may have crossed") {
					t.Errorf("crash-after-save on %s: the reason does not say why: %s", c.attempt, r.Reason)
				}
			case "claim-file":
				if c := r.Signals[agent.ClaimID]; c == nil || !*c || !strings.Contains(r.Verdicts.Signals[len(r.Verdicts.Signals)-1].Evidence, "from the claim file") {
					t.Errorf("claim-file: the claim file was not read: %+v", r.Verdicts.Signals)
				}
			}
			if code, _, errOut := run(t, "verify", file); code != 0 {
				t.Errorf("%s: the run file does not verify: %s", c.mode, errOut)
			}
		})
	}
	if code, out, errOut := run(t, "runs", "--json", "--data-dir", dir); code != 0 || !strings.Contains(out, "booking") {
		t.Errorf("the store after the agents: exit %d %s %s", code, out, errOut)
	}
}

// observedSteps reads the observed steps of every attempt of a run file.
func observedSteps(t *testing.T, file string) []agent.Step {
	t.Helper()
	return slices.DeleteFunc(attemptSteps(t, file), func(s agent.Step) bool { return s.Provenance != agent.Observed })
}

// attemptSteps reads the steps of every attempt of a run file: each observed, but for an
// attempt's last, the harness's look at the page the agent left.
func attemptSteps(t *testing.T, file string) []agent.Step {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Attempts []struct {
			Steps []json.RawMessage `json:"steps"`
		} `json:"attempts"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var out []agent.Step
	for _, a := range doc.Attempts {
		for i, raw := range a.Steps {
			var s agent.Step
			if err := json.Unmarshal(raw, &s); err != nil {
				t.Fatal(err)
			}
			if s.Provenance != agent.Observed && (i != len(a.Steps)-1 || s.Action.Kind != agent.ActVerify) {
				t.Errorf("step %q is %q, want observed", s.Action.Description, s.Provenance)
			}
			out = append(out, s)
		}
	}
	return out
}

// TestTaskFileNamesItsAgent: a task file's agent.command runs only with --agent, in the task
// file's folder; without it the run is refused, naming the program, and nothing starts.
func TestTaskFileNamesItsAgent(t *testing.T) {
	needAgents(t)
	script, err := filepath.Abs(filepath.Join(agentsDir, "puppeteer-book.js"))
	if err != nil {
		t.Fatal(err)
	}
	dir, data := t.TempDir(), t.TempDir()
	task := filepath.Join(dir, "task.yaml")
	if err := os.WriteFile(task, []byte(`schema: observatory.task/v1
name: booked-by-my-agent
intent: Reserve "Spectral scan" in room "north".
lab: booking
start_url: /
agent: {command: [node, `+script+`]}
success: [{id: saved, http: {url: /api/state, expr: "body.records.exists(r, r.title == 'Spectral scan' && r.room == 'north')"}}]
attempts: [{name: saves, fault: none, params: {latency_ms: 50}}]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "run", task, "--no-video", "--data-dir", data)
	if code == 0 || !strings.Contains(errOut, "run it with --agent") || !strings.Contains(errOut, script) {
		t.Errorf("a task's own agent without --agent: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, out, _ := run(t, "runs", "--json", "--data-dir", data); strings.TrimSpace(out) != "[]" {
		t.Errorf("a refused run was recorded: %s", out)
	}
	code, out, errOut = run(t, "run", task, "--agent", "--json", "--no-video", "--data-dir", data)
	var rows []jsonRow
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 1 || rows[0].Terminal != agent.Completed {
		t.Errorf("a task's own agent with --agent: exit %d\n%s\n%s", code, out, errOut)
	}
	noAgentLeft(t, script)
}
