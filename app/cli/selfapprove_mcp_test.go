//go:build linux

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
)

// mcpClientEnv names, in the helper MCP client's environment, where it writes its report;
// mcpClientArgsEnv the arguments of the observatory mcp it starts.
const (
	mcpClientEnv     = "OBSERVATORY_TEST_MCP_CLIENT_REPORT"
	mcpClientArgsEnv = "OBSERVATORY_TEST_MCP_CLIENT_ARGS"
)

// TestHelperMCPClient is an MCP client as a process of its own, as a coding assistant is: it
// starts observatory mcp over standard input and output, clicks Reserve slot (which waits
// for approval) and, while the click waits, answers the approval itself by every route it
// has — its own environment, its child's command line and environment, the data folder they
// name, the discovery file and the socket — from itself and from a child of its own (curl).
// What came of each try is its report (a selfReport).
func TestHelperMCPClient(t *testing.T) {
	reportFile := os.Getenv(mcpClientEnv)
	if reportFile == "" {
		t.Skip("helper process: the MCP client of TestAnMCPClientCannotApproveItself")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperArgsEnv+"="+os.Getenv(mcpClientArgsEnv), "GORACE=atexit_sleep_ms=0")
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	told := make(chan string, 8)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "self-approving-client", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			select {
			case told <- req.Params.Message:
			default:
			}
		}}).Connect(ctx, &mcp.IOTransport{Reader: stdout, Writer: stdin}, nil)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := callTool(t, cs, "browser_snapshot", nil)
	clicked := clickAsync(cs, refOf(t, page, "button", "Reserve slot"))
	rep := selfReport{DataDirVar: os.Getenv("OBSERVATORY_DATA_DIR"), Routes: map[string][]string{}}
	select { // the click is asking once the server says it waits for a person
	case rep.Waiting = <-told:
	case <-time.After(time.Minute):
	}
	dirs := map[string]bool{}
	route := func(name string, words []string) {
		found := dataDirsIn(words)
		rep.Routes[name] = found
		for _, d := range found {
			dirs[d] = true
		}
	}
	route("environment", splitWords(os.Environ()))
	args, _ := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/cmdline")
	route("server's command line", strings.Split(string(args), "\x00"))
	env, _ := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/environ")
	route("server's environment", splitWords(strings.Split(string(env), "\x00")))
	for d := range dirs {
		files, _ := filepath.Glob(filepath.Join(d, "live", "*.json"))
		for _, f := range files {
			b, _ := os.ReadFile(f)
			var info struct{ Addr, Token string }
			if json.Unmarshal(b, &info) != nil {
				continue
			}
			rep.Found = append(rep.Found, struct {
				File string `json:"file"`
				Addr string `json:"addr"`
			}{f, info.Addr})
			sock := strings.TrimPrefix(info.Addr, "unix:")
			rep.tried("client", "events", liveCall(sock, info.Token, http.MethodGet, "/events", ""))
			for _, id := range []string{"1", "2", "3"} {
				rep.tried("client", "answer "+id, liveCall(sock, info.Token, http.MethodPost, "/answer", `{"id":"`+id+`","answer":"approve","window":"desktop"}`))
			}
			out, _ := exec.Command("curl", "-s", "-m", "10", "-o", "/dev/null", "-w", "%{http_code}", "--unix-socket", sock,
				"-H", "Authorization: Bearer "+info.Token, "-H", "Content-Type: application/json",
				"-d", `{"id":"1","answer":"approve","window":"serve"}`, "http://live/answer").Output()
			code, _ := strconv.Atoi(string(out))
			rep.tried("child", "answer 1", code)
		}
	}
	err = <-clicked
	rep.Click = "done"
	if err != nil {
		rep.Click = err.Error()
	}
	b, _ := json.Marshal(rep)
	if err := os.WriteFile(reportFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	stdin.Close() // the client leaves: the server ends its run
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("observatory mcp did not end after its client left")
	}
}

// tried records one try and its status.
func (r *selfReport) tried(who, what string, status int) {
	r.Tries = append(r.Tries, tryReport{Who: who, What: what, Status: status})
}

// dataDirsIn are the folders words name after --data-dir.
func dataDirsIn(words []string) []string {
	var out []string
	for i, w := range words {
		if w == "--data-dir" && i+1 < len(words) {
			out = append(out, words[i+1])
		}
		if d, ok := strings.CutPrefix(w, "--data-dir="); ok {
			out = append(out, d)
		}
	}
	return out
}

// splitWords splits environment entries into words, a command line carried in one included.
func splitWords(entries []string) []string {
	var out []string
	for _, kv := range entries {
		if d, ok := strings.CutPrefix(kv, "OBSERVATORY_DATA_DIR="); ok {
			out = append(out, "--data-dir", d)
		}
		out = append(out, strings.FieldsFunc(kv, func(r rune) bool { return r == '\x1f' || r == '=' || r == ' ' })...)
	}
	return out
}

// liveCall sends one request to a run's socket, as a window does; its status, 0 for none.
func liveCall(sock, token, method, path, body string) int {
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	req, err := http.NewRequest(method, "http://live"+path, strings.NewReader(body))
	if err != nil {
		return 0
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	return resp.StatusCode
}

// TestAnMCPClientCannotApproveItself: in real Chromium, an MCP client (a process of its own)
// starts `observatory mcp --approve ask` over standard input and, while its click of Reserve
// slot waits for approval, answers it itself by every route it has, and through a child of
// its own. Every try is refused; with no person to answer, the click is held and never acts;
// the run file records each refused self-answer, who and when, and verifies.
func TestAnMCPClientCannotApproveItself(t *testing.T) {
	browsertest.Ready(t)
	dataDir := t.TempDir()
	reportFile := filepath.Join(t.TempDir(), "report.json")
	args := []string{"mcp", guardedBooking(t), "--data-dir", dataDir, "--no-video", "--approve", "ask", "--attempt", "guarded"}
	client := exec.Command(os.Args[0], "-test.run=^TestHelperMCPClient$", "-test.v")
	client.Env = append(os.Environ(), mcpClientEnv+"="+reportFile, mcpClientArgsEnv+"="+strings.Join(args, "\x1f"), "OBSERVATORY_DATA_DIR="+dataDir)
	var out bytes.Buffer
	client.Stdout, client.Stderr = &out, &out
	if err := client.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- client.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the MCP client: %v\n%s", err, out.String())
		}
	case <-time.After(3 * time.Minute):
		_ = client.Process.Kill()
		t.Fatalf("the MCP client still runs after 3 minutes:\n%s", out.String())
	}
	b, err := os.ReadFile(reportFile)
	if err != nil {
		t.Fatalf("the MCP client reported nothing:\n%s", out.String())
	}
	var rep selfReport
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	t.Logf("routes the client found: %v", rep.Routes)
	if !strings.Contains(rep.Waiting, "waiting for a person to approve") || !strings.Contains(rep.Waiting, "Reserve slot") {
		t.Errorf("while the click waited, the client was told %q; want a progress notification that it waits for a person to approve Reserve slot", rep.Waiting)
	}
	if len(rep.Found) == 0 || len(rep.Tries) == 0 {
		t.Fatalf("the client found no live channel to try (%s): the test shows nothing", b)
	}
	for _, try := range rep.Tries {
		if try.Status != http.StatusForbidden {
			t.Errorf("the client's %s (%s) was answered %d, want 403 refused", try.What, try.Who, try.Status)
		}
	}
	if rep.Click == "done" {
		t.Error("the click only the MCP client approved acted")
	}
	f := exportedRun(t, dataDir)
	var asked []agent.Approval
	for _, a := range f.Run.Attempts {
		for _, s := range a.Steps {
			asked = append(asked, s.Approvals...)
		}
		if a.Verdicts.Gate.Done {
			t.Errorf("attempt %s: the gate says done", a.Slug)
		}
	}
	if len(asked) == 0 {
		t.Fatal("no approval was recorded")
	}
	refused := refusedOf(asked)
	var self, child int
	for by, r := range refused {
		switch {
		case !strings.Contains(r.Why, "MCP client") || r.AtMS <= 0:
			t.Errorf("refusal of %s recorded as %+v", by, r)
		case strings.Contains(by, "TestHelperMCPClient"):
			self++
		case strings.Contains(by, "curl"):
			child++
		}
	}
	if self == 0 || child == 0 {
		t.Errorf("refusals recorded: %+v; want the client's own and its child's", refused)
	}
	for _, a := range asked {
		if a.Answer == agent.AnswerApprove {
			t.Errorf("an approval is recorded approved by %q", a.By)
		}
	}
}
