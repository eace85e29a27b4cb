//go:build linux

package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"observatory/backend/agent"
)

// selfReport is what the self-approving agent (self-approve.js) says it found and tried.
type selfReport struct {
	// UID is the agent's user id; Denied the live folders it found and could not read.
	UID    int      `json:"uid"`
	Denied []string `json:"denied"`
	// DataDirVar is $OBSERVATORY_DATA_DIR as the agent has it.
	DataDirVar string              `json:"data_dir_var"`
	Routes     map[string][]string `json:"routes"`
	Sockets    []string            `json:"sockets"`
	Found      []struct {
		File string `json:"file"`
		Addr string `json:"addr"`
	} `json:"found"`
	Tries []tryReport `json:"tries"`
	// ServePending is how many questions serve showed the agent with the stolen token.
	ServePending int `json:"serve_pending"`
	// Click is how an MCP client's click that waited for approval ended: "done", or its error.
	Click string `json:"click,omitempty"`
	// Waiting is what the MCP server told the client while its click waited for approval.
	Waiting string `json:"waiting,omitempty"`
}

// tryReport is one try of the agent's: who (itself, a child, a daemon), what, and the status
// it was answered.
type tryReport struct {
	Who    string `json:"who"`
	What   string `json:"what"`
	Status int    `json:"status"`
	// Said is what serve answered, when it was serve.
	Said string `json:"said,omitempty"`
}

// shortApprovalTask is the booking-approval task with an approval limit of limit: a question
// nobody may answer ends sooner.
func shortApprovalTask(t *testing.T, limit string) string {
	t.Helper()
	b, err := os.ReadFile(approvalTask)
	if err != nil {
		t.Fatal(err)
	}
	task := filepath.Join(t.TempDir(), "booking-approval.yaml")
	if err := os.WriteFile(task, bytes.Replace(b, []byte("limit_ms: 20000"), []byte("limit_ms: "+limit), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	return task
}

// runAgentProcess runs `run --agent -- node SCRIPT` (AGENT_MODE mode) on task as a process of
// its own, as a person starts it (a window is then no child of it), exporting the run; it
// returns the run file and what the process said.
func runAgentProcess(t *testing.T, task, dataDir, script, mode string, extra ...string) (string, string) {
	t.Helper()
	t.Setenv("AGENT_MODE", mode)
	file := filepath.Join(t.TempDir(), "run.json")
	script, _ = filepath.Abs(filepath.Join(agentsDir, script))
	args := append([]string{"run", task, "--json", "--no-video", "--export", file, "--data-dir", dataDir}, extra...)
	p := start(t, append(args, "--agent", "--", "node", script)...)
	select {
	case <-p.exited:
	case <-time.After(3 * time.Minute):
		t.Fatalf("run --agent still runs after 3 minutes:\n%s", p.said())
	}
	if !ranThrough(p.cmd.ProcessState.ExitCode(), p.said()) {
		t.Fatalf("run --agent exited %d:\n%s", p.cmd.ProcessState.ExitCode(), p.said())
	}
	return file, p.said()
}

// selfApproval runs the self-approving agent under extra (the --approve flags) and checks
// that it found the live channel and every one of its tries was refused; it returns the held
// save's approvals, every approval of the run (the page's own POSTs are held too), and what
// the agent reported. With window, a serve window is open on the data folder and the agent
// is given its address and session token.
func selfApproval(t *testing.T, window bool, extra ...string) (saves, all []agent.Approval, rep selfReport) {
	t.Helper()
	needAgents(t)
	dataDir := t.TempDir()
	if window { // a person's serve, whose session token the agent has stolen
		t.Setenv("AGENT_SERVE_URL", openWindow(t, dataDir).address)
	}
	reportFile := filepath.Join(t.TempDir(), "report.json")
	t.Setenv("AGENT_REPORT", reportFile)
	t.Setenv("OBSERVATORY_DATA_DIR", dataDir) // the run's: the agent must not be given it
	file, said := runAgentProcess(t, shortApprovalTask(t, "8000"), dataDir, "puppeteer-book.js", "self-approve", extra...)
	b, err := os.ReadFile(reportFile)
	if err != nil {
		t.Fatalf("the agent reported nothing: %v\n%s", err, said)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Found) == 0 || len(rep.Tries) == 0 {
		t.Fatalf("the agent found no live channel to try (%s): the test shows nothing\n%s", b, said)
	}
	if rep.DataDirVar != "" {
		t.Errorf("the agent's environment names the data folder: OBSERVATORY_DATA_DIR=%s", rep.DataDirVar)
	}
	for _, try := range rep.Tries {
		if try.Status != 403 {
			t.Errorf("the agent's %s (%s) was answered %d, want 403 refused", try.What, try.Who, try.Status)
		}
	}
	f, err := readRunFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.Run.Attempts); n != 1 {
		t.Fatalf("%d attempts", n)
	}
	if a := f.Run.Attempts[0]; a.Verdicts.Gate.Done || a.Terminal == agent.Completed {
		t.Errorf("the attempt whose save only the agent approved ended %s, gate done %v (%s): the origin must receive nothing", a.Terminal, a.Verdicts.Gate.Done, a.Reason)
	}
	held := heldSaves(t, file)
	if len(held) == 0 {
		t.Fatalf("no step records the held save:\n%s", said)
	}
	for _, a := range held {
		if a.Answer == agent.AnswerApprove {
			t.Errorf("the held save is recorded approved: %+v", a)
		}
	}
	if code, _, out := run(t, "verify", file); code != 0 {
		t.Errorf("the run file does not verify: %s", out)
	}
	for _, s := range attemptSteps(t, file) {
		all = append(all, s.Approvals...)
	}
	return held, all, rep
}

// refusedOf are the refusals recorded in approvals, by who tried.
func refusedOf(approvals []agent.Approval) map[string]agent.RefusedAnswer {
	out := map[string]agent.RefusedAnswer{}
	for _, a := range approvals {
		for _, r := range a.Refused {
			out[r.By] = r
		}
	}
	return out
}

// TestAnAgentCannotApproveItsOwnHeldSave: in real Chromium, `run --agent --approve ask` with
// no terminal and a serve window nobody answers in: the agent finds the data folder (its
// parent's command line and environment; its own environment names none), the discovery file
// and the socket, follows the run and posts "approve" to its own held save — itself, through
// a child (curl) and through a daemon that left its parent — and, with serve's stolen session
// token, through serve's Approvals.Answer. Every try is refused; the save stays held until the
// limit and never reaches the origin; the run file records each refused self-answer, who
// and when, and verifies.
func TestAnAgentCannotApproveItsOwnHeldSave(t *testing.T) {
	held, all, rep := selfApproval(t, true, "--approve", "ask")
	t.Logf("routes the agent found: %v; sockets it holds: %v", rep.Routes, rep.Sockets)
	if rep.ServePending == 0 || !slices.ContainsFunc(rep.Tries, func(t tryReport) bool {
		return strings.HasPrefix(t.What, "serve's") && strings.Contains(t.Said, "only a person answers approvals") && strings.Contains(t.Said, "the agent's side")
	}) {
		t.Errorf("the agent did not get to answer through serve (%d questions shown, tries %+v): the test shows nothing of it", rep.ServePending, rep.Tries)
	}
	refused := refusedOf(all)
	var node, curl int
	for by, r := range refused {
		switch {
		case !strings.Contains(r.Why, "the agent's side") || r.AtMS <= 0:
			t.Errorf("refusal of %s recorded as %+v", by, r)
		case strings.Contains(by, "node"):
			node++
		case strings.Contains(by, "curl"):
			curl++
		}
	}
	if node == 0 || curl < 2 {
		t.Errorf("refusals recorded: %+v; want the agent's own and those of its child and its daemon; approvals %+v", refused, all)
	}
	for _, a := range held {
		if a.By != "" {
			t.Errorf("an approval nobody answered is recorded as answered by %q", a.By)
		}
	}
}

// TestARunNobodyWatchesHolds: no --approve, no terminal, no window: the agent following the
// run is no window with a person, so its held save is held at once, recorded as held with
// nobody to ask, and its tries are refused.
func TestARunNobodyWatchesHolds(t *testing.T) {
	held, _, _ := selfApproval(t, false)
	for _, a := range held {
		if a.Answer != agent.AnswerNone || !strings.HasPrefix(a.By, "nobody") || a.AnsweredMS-a.AskedMS > 1000 {
			t.Errorf("the held save is recorded as %s by %q after %d ms, want held at once with nobody to ask", a.Answer, a.By, a.AnsweredMS-a.AskedMS)
		}
	}
}

// startApart runs the command line as a process that is no descendant of this one (a shell
// starts it in the background and exits: it is re-parented), as a person starts a window
// beside an agent: the agent's side is what the agent, or the MCP client, started.
func startApart(t *testing.T, args ...string) *process {
	t.Helper()
	stderr := filepath.Join(t.TempDir(), "stderr")
	sh := exec.Command("sh", "-c", `"$@" 2>"$APART_STDERR" </dev/null >/dev/null & echo $!`, "sh", os.Args[0], "-test.run=^TestHelperProcess$")
	sh.Env = append(os.Environ(), helperArgsEnv+"="+strings.Join(args, "\x1f"), "GORACE=atexit_sleep_ms=0", "APART_STDERR="+stderr)
	out, err := sh.Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	p := &process{stderr: stderr, exited: make(chan struct{})}
	go func() { // it is not ours to wait for: it has exited when it is gone (or a zombie of init's)
		defer close(p.exited)
		for {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
			if err != nil || strings.Contains(string(b), ") Z ") {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	t.Cleanup(func() {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		<-p.exited
	})
	return p
}
