//go:build linux

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
	"observatory/backend/runfile"
)

// bookingTask is the booking lab's own task file.
var bookingTask = filepath.Join("..", "..", "backend", "labs", "booking", "task.yaml")

// mcpProcess starts `observatory mcp ARGS` as a process of its own (the test binary
// re-executed as the helper) and connects the Go SDK's client to it over the process's
// standard input and output; pipe is the client's end of its standard input.
func mcpProcess(t *testing.T, args ...string) (cs *mcp.ClientSession, cmd *exec.Cmd, stderr string, pipe *clientPipe) {
	t.Helper()
	stderr = filepath.Join(t.TempDir(), "stderr")
	f, err := os.Create(stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd = exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperArgsEnv+"="+strings.Join(append([]string{"mcp"}, args...), "\x1f"), "GORACE=atexit_sleep_ms=0")
	cmd.Stderr = f
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	pipe = &clientPipe{w: stdin, wrote: make(chan struct{})}
	client := mcp.NewClient(&mcp.Implementation{Name: "scripted-agent", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err = client.Connect(ctx, &mcp.IOTransport{Reader: stdout, Writer: pipe}, nil)
	if err != nil {
		b, _ := os.ReadFile(stderr)
		t.Fatalf("connecting to observatory mcp: %v\n%s", err, b)
	}
	return cs, cmd, stderr, pipe
}

// clientPipe is the client's end of the server's standard input, which tells what was written
// to it.
type clientPipe struct {
	w  io.WriteCloser
	mu sync.Mutex
	// sent is everything written so far; wrote is closed and replaced at each write.
	sent  bytes.Buffer
	wrote chan struct{}
}

// Write writes b to the server's standard input.
func (p *clientPipe) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sent.Write(b[:n])
	close(p.wrote)
	p.wrote = make(chan struct{})
	return n, err
}

// Close closes the server's standard input.
func (p *clientPipe) Close() error { return p.w.Close() }

// die closes the client's end of the pipe at once, as a client that crashes does, whatever
// calls are in flight.
func (p *clientPipe) die() { _ = p.Close() }

// waitSent waits, failing t past d, until what was written to the server holds s: the server
// reads it before it sees the pipe close.
func (p *clientPipe) waitSent(t *testing.T, s string, d time.Duration) {
	t.Helper()
	deadline := time.After(d)
	for {
		p.mu.Lock()
		sent, wrote := bytes.Contains(p.sent.Bytes(), []byte(s)), p.wrote
		p.mu.Unlock()
		if sent {
			return
		}
		select {
		case <-wrote:
		case <-deadline:
			t.Fatalf("the client wrote no %q to the server in %s", s, d)
		}
	}
}

// callTool calls a tool and returns its text and whether it was an error.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, *mcp.CallToolResult) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res
}

// refOf finds the ref of the element with role and name in a snapshot.
func refOf(t *testing.T, snapshot, role, name string) string {
	t.Helper()
	m := regexp.MustCompile(`- ` + role + ` "` + regexp.QuoteMeta(name) + `"[^\n]*\[ref=(e\d+)\]`).FindStringSubmatch(snapshot)
	if m == nil {
		t.Fatalf("no %s %q in the snapshot:\n%s", role, name, snapshot)
	}
	return m[1]
}

// fillBooking is the scripted agent up to the save: it opens the booking dialog and fills
// it in as an agent prompted for Playwright MCP would, acting on refs from each snapshot,
// and returns the last page it saw.
func fillBooking(t *testing.T, cs *mcp.ClientSession, room string) string {
	t.Helper()
	page, res := callTool(t, cs, "browser_snapshot", nil)
	if res.IsError {
		t.Fatalf("snapshot: %s", page)
	}
	page, res = callTool(t, cs, "browser_click", map[string]any{"element": "Reserve slot button", "target": refOf(t, page, "button", "Reserve slot")})
	if res.IsError {
		t.Fatalf("click Reserve slot: %s", page)
	}
	page, res = callTool(t, cs, "browser_type", map[string]any{"element": "title", "ref": refOf(t, page, "textbox", "Reservation title"), "text": "Spectral scan"})
	if res.IsError {
		t.Fatalf("type the title: %s", page)
	}
	page, res = callTool(t, cs, "browser_select_option", map[string]any{"target": refOf(t, page, "combobox", "Room"), "values": []string{room}})
	if res.IsError {
		t.Fatalf("select the room: %s", page)
	}
	return page
}

// bookRoom is the scripted agent: it books "Spectral scan" in room and waits for the notice
// it trusts, and returns the last page it saw.
func bookRoom(t *testing.T, cs *mcp.ClientSession, room string) string {
	t.Helper()
	page := fillBooking(t, cs, room)
	page, res := callTool(t, cs, "browser_click", map[string]any{"element": "Save reservation button", "target": refOf(t, page, "button", "Save reservation")})
	if res.IsError {
		t.Fatalf("click Save reservation: %s", page)
	}
	page, _ = callTool(t, cs, "browser_wait_for", map[string]any{"text": "Reservation saved", "time": 5})
	return page
}

// claimDone calls task_done with a claim of done and returns what the gate found.
func claimDone(t *testing.T, cs *mcp.ClientSession, words string) (gate struct {
	Attempt  string `json:"attempt"`
	Terminal string `json:"terminal"`
	Gate     struct {
		Done       bool `json:"done"`
		Conditions []struct {
			ID    string `json:"id"`
			Holds bool   `json:"holds"`
		} `json:"conditions"`
	} `json:"gate"`
}) {
	t.Helper()
	text, res := callTool(t, cs, "task_done", map[string]any{"claim": words})
	if res.IsError {
		t.Fatalf("task_done: %s", text)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &gate); err != nil || len(gate.Gate.Conditions) == 0 {
		t.Fatalf("task_done's structured result %s: %v", raw, err)
	}
	return gate
}

// exported exports the session's run from the data folder and verifies it offline.
func exportedRun(t *testing.T, dataDir string) runfile.File {
	t.Helper()
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb}
	if code := Execute(context.Background(), env, []string{"--data-dir", dataDir, "runs", "--json"}); code != 0 {
		t.Fatalf("runs: %s", errb.String())
	}
	var runs []struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal(out.Bytes(), &runs); err != nil || len(runs) != 1 {
		t.Fatalf("runs --json: %v %s", err, out.String())
	}
	if runs[0].Status != string(agent.RunFinished) {
		t.Errorf("the session's run is %s, want finished", runs[0].Status)
	}
	file := filepath.Join(t.TempDir(), "run.json")
	if code := Execute(context.Background(), env, []string{"--data-dir", dataDir, "export", runs[0].ID, "-o", file}); code != 0 {
		t.Fatalf("export: %s", errb.String())
	}
	errb.Reset()
	if code := Execute(context.Background(), Env{Stdout: &out, Stderr: &errb}, []string{"--data-dir", t.TempDir(), "verify", file}); code != 0 {
		t.Fatalf("verify of the exported run: %s", errb.String())
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	f, err := runfile.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestMCPAgentOverStdioIsJudgedByTheGate: a scripted agent drives the booking lab through
// `observatory mcp` over standard input and output, claiming done after each booking. On
// saves-normally the gate agrees; on notice-nothing-saved and wrong-room the gate says not
// done and the agent's claim is marked wrong, in the history and in the exported run file,
// which verify accepts offline. The session's attempts start at the agent's first browser
// call after each task_done, and the run ends when the client disconnects.
func TestMCPAgentOverStdioIsJudgedByTheGate(t *testing.T) {
	browsertest.Ready(t)
	dataDir := t.TempDir()
	cs, cmd, stderr, _ := mcpProcess(t, bookingTask, "--data-dir", dataDir, "--no-video", "--approve", "deny",
		"--attempt", "saves-normally", "--attempt", "notice-nothing-saved", "--attempt", "wrong-room")
	for _, want := range []struct {
		attempt string
		done    bool
	}{{"saves-normally", true}, {"notice-nothing-saved", false}, {"wrong-room", false}} {
		intent, res := callTool(t, cs, "task_intent", nil)
		if !strings.Contains(intent, `Reserve "Spectral scan" in room "north".`) || !strings.Contains(intent, "Committed record exists") {
			t.Errorf("task_intent does not tell the intent and the gate:\n%s", intent)
		}
		var told struct {
			Attempt  string `json:"attempt"`
			StartURL string `json:"start_url"`
		}
		raw, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(raw, &told)
		if u, err := url.Parse(told.StartURL); err != nil || !u.IsAbs() || u.Hostname() != "127.0.0.1" || told.Attempt != want.attempt ||
			!strings.Contains(intent, "Attempt "+want.attempt+" is open: it began at "+told.StartURL) {
			t.Errorf("task_intent before %s tells attempt %q at %q, want that attempt's absolute start page:\n%s", want.attempt, told.Attempt, told.StartURL, intent)
		}
		page := bookRoom(t, cs, "north")
		if !strings.Contains(page, "Reservation saved") {
			t.Errorf("%s: the agent did not see the success notice it trusts:\n%s", want.attempt, page)
		}
		got := claimDone(t, cs, "I booked Spectral scan in north; the page says Reservation saved.")
		if got.Attempt != want.attempt || got.Gate.Done != want.done || (got.Terminal == string(agent.Completed)) != want.done {
			t.Errorf("task_done on %s: attempt %s, gate done %v, terminal %s; want the gate done %v", want.attempt, got.Attempt, got.Gate.Done, got.Terminal, want.done)
		}
	}
	_ = cs.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(60 * time.Second):
		t.Fatal("observatory mcp did not exit after its client disconnected")
	}
	said, _ := os.ReadFile(stderr)
	if !strings.Contains(strings.ToLower(string(said)), "agent's claim") {
		t.Errorf("the table on standard error has no agent's claim column:\n%s", said)
	}
	f := exportedRun(t, dataDir)
	if len(f.Run.Attempts) != 3 {
		t.Fatalf("%d attempts in the run file, want 3", len(f.Run.Attempts))
	}
	for _, a := range f.Run.Attempts {
		if a.Claim == nil || !a.Claim.Done || a.Claim.Source != agent.ClaimMCP || !strings.Contains(a.Claim.Words, "Reservation saved") {
			t.Errorf("%s: claim %+v, want the agent's done claim over MCP", a.Slug, a.Claim)
		}
		wrong := slices.Contains(a.Verdicts.Wrong(), agent.ClaimID)
		if wrong != (a.Slug != "saves-normally") {
			t.Errorf("%s: claim marked wrong %v (verdicts %+v)", a.Slug, wrong, a.Verdicts.Signals)
		}
		if len(a.Plan) != 0 || len(a.Steps) < 5 {
			t.Errorf("%s: plan %v and %d steps, want no scripted plan and the agent's steps", a.Slug, a.Plan, len(a.Steps))
		}
	}
}

// guardedBooking is the booking lab's task file with two attempts of its own: one whose
// irreversible actions need the user's approval, and one without safeguards.
func guardedBooking(t *testing.T) string {
	return bookingWith(t, `
  - name: guarded
    title: The user approves each irreversible action
    fault: none
    safeguards:
      approval: {required_for: [irreversible], limit_ms: 5000}
  - name: plain
    title: No safeguards
    fault: none
    safeguards: {}
`)
}

// bookingWith is the booking lab's task file with the given attempts (YAML list items) in
// place of its own, written to a temporary folder.
func bookingWith(t *testing.T, attempts string) string {
	t.Helper()
	data, err := os.ReadFile(bookingTask)
	if err != nil {
		t.Fatal(err)
	}
	head, _, ok := strings.Cut(string(data), "\nattempts:")
	if !ok {
		t.Fatal("the booking task file has no attempts")
	}
	path := filepath.Join(t.TempDir(), "task.yaml")
	if err := os.WriteFile(path, []byte(head+"\nattempts:"+attempts), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// syncBuffer is a buffer written by one goroutine and read by another.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// mcpOverHTTP runs `observatory mcp ARGS --http 127.0.0.1:0` in this process and connects
// the Go SDK's client to it over streamable HTTP, with stdin (nil for none) as its standard
// input, where approvals are asked; stop ends the session as Ctrl+C does and returns once
// the command has; done is closed once the command has returned; said is its standard
// error so far.
func mcpOverHTTP(t *testing.T, stdin *os.File, args ...string) (cs *mcp.ClientSession, stop func() string, done <-chan struct{}, said func() string) {
	t.Helper()
	_, cs, stop, done, said = mcpOverHTTPAt(t, stdin, args...)
	return cs, stop, done, said
}

// mcpOverHTTPAt is mcpOverHTTP that also returns the address the command serves at.
func mcpOverHTTPAt(t *testing.T, stdin *os.File, args ...string) (url string, cs *mcp.ClientSession, stop func() string, done <-chan struct{}, said func() string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb syncBuffer
	exited := make(chan struct{})
	code := 0
	go func() {
		defer close(exited)
		env := Env{Stdout: &out, Stderr: &errb}
		if stdin != nil {
			env.Stdin = stdin
		}
		code = Execute(ctx, env, append([]string{"mcp", "--http", "127.0.0.1:0"}, args...))
	}()
	for deadline := time.Now().Add(30 * time.Second); url == ""; time.Sleep(20 * time.Millisecond) {
		url = strings.TrimSpace(out.String())
		select {
		case <-exited:
			t.Fatalf("observatory mcp exited %d:\n%s", code, errb.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("observatory mcp printed no address:\n%s", errb.String())
		}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "scripted-agent", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connecting to %s: %v", url, err)
	}
	stopped := false
	stop = func() string {
		if !stopped {
			stopped = true
			_ = cs.Close()
			cancel()
			select {
			case <-exited:
			case <-time.After(60 * time.Second):
				t.Fatalf("observatory mcp did not end after Ctrl+C:\n%s", errb.String())
			}
		}
		return errb.String()
	}
	t.Cleanup(func() { stop() })
	return url, cs, stop, exited, errb.String
}

// TestMCPOverHTTPRefusesWhatTheHarnessRefuses: over streamable HTTP, a selector several
// elements match is refused with "take a new snapshot" and acts on nothing; an irreversible
// click waits for the user's approval through Observatory's approver and is refused when
// denied, a tool error with the page kept: the attempt goes on until the agent gives up with
// task_done; the next call starts the next attempt, where a ref of a snapshot the page no
// longer shows is refused and the gate says done; a navigation outside the task's origins is
// refused and recorded. The exported run verifies offline.
func TestMCPOverHTTPRefusesWhatTheHarnessRefuses(t *testing.T) {
	browsertest.Ready(t)
	dataDir := t.TempDir()
	cs, stop, _, _ := mcpOverHTTP(t, nil, guardedBooking(t), "--data-dir", dataDir, "--no-video", "--approve", "deny")

	page, _ := callTool(t, cs, "browser_snapshot", nil)
	text, res := callTool(t, cs, "browser_click", map[string]any{"target": "button"})
	if !res.IsError || !strings.Contains(text, "several elements") || !strings.Contains(text, "take a new snapshot") {
		t.Errorf("a selector several buttons match:\n%s", text)
	}
	text, res = callTool(t, cs, "browser_click", map[string]any{"element": "Reserve slot", "target": refOf(t, page, "button", "Reserve slot")})
	if !res.IsError || !strings.Contains(text, "Approval asked: deny") || strings.Contains(text, "ended") || !strings.Contains(text, "- Page URL: http://127.0.0.1:") {
		t.Errorf("an irreversible click denied approval, a tool error with the page kept:\n%s", text)
	}
	if text, res = callTool(t, cs, "task_done", map[string]any{"done": false, "claim": "The save needs an approval I did not get."}); res.IsError {
		t.Fatalf("giving up: %s", text)
	}

	page = fillBooking(t, cs, "north") // the next call starts the next attempt
	title := refOf(t, page, "textbox", "Reservation title")
	callTool(t, cs, "browser_click", map[string]any{"target": refOf(t, page, "button", "Save reservation")})
	callTool(t, cs, "browser_wait_for", map[string]any{"textGone": "Saving", "time": 5})
	text, res = callTool(t, cs, "browser_type", map[string]any{"target": title, "text": "again"})
	if !res.IsError || !strings.Contains(text, "take a new snapshot") {
		t.Errorf("a ref the page no longer shows:\n%s", text)
	}
	if got := claimDone(t, cs, "Saved."); got.Attempt != "plain" || !got.Gate.Done {
		t.Errorf("task_done on the plain attempt: %+v", got)
	}

	text, res = callTool(t, cs, "browser_navigate", map[string]any{"url": "http://example.com/elsewhere"})
	if !res.IsError || !strings.Contains(text, "example.com") {
		t.Errorf("a navigation outside the task's origins:\n%s", text)
	}
	said := stop()
	f := exportedRun(t, dataDir)
	if len(f.Run.Attempts) != 3 {
		t.Fatalf("%d attempts, want 3:\n%s\nthe navigation away was answered:\n%s", len(f.Run.Attempts), said, text)
	}
	guarded, plain, away := f.Run.Attempts[0], f.Run.Attempts[1], f.Run.Attempts[2]
	if guarded.Terminal == agent.Completed || len(guarded.Steps) != 3 || guarded.Steps[2].Action.Kind != agent.ActVerify {
		t.Errorf("guarded ended %s after %d steps: %s", guarded.Terminal, len(guarded.Steps), guarded.Reason)
	} else {
		if st := guarded.Steps[0]; !st.Unresolved || !strings.Contains(st.Error, "several elements") {
			t.Errorf("the ambiguous click was recorded as %+v", st)
		}
		if a := guarded.Steps[1].Approvals; len(a) != 1 || a[0].Answer != agent.AnswerDeny {
			t.Errorf("the Reserve slot click's approvals: %+v", a)
		}
	}
	if guarded.Claim == nil || guarded.Claim.Done {
		t.Errorf("guarded: the agent never said done, yet its claim is %+v", guarded.Claim)
	}
	if plain.Slug != "plain" || plain.Terminal != agent.Completed || plain.Claim == nil || !plain.Claim.Done || slices.Contains(plain.Verdicts.Wrong(), agent.ClaimID) {
		t.Errorf("plain: %s %s, claim %+v, wrong %v", plain.Slug, plain.Terminal, plain.Claim, plain.Verdicts.Wrong())
	}
	for _, st := range plain.Steps {
		if st.Action.Kind == agent.ActFill && st.Action.Value == "again" {
			t.Errorf("the stale ref was acted on: %+v", st)
		}
	}
	if away.Slug != "plain-2" || len(away.Steps) != 1 || away.Steps[0].Action.Kind != agent.ActNavigate || away.Steps[0].Error == "" {
		t.Errorf("the navigation outside the origins was recorded as %s with steps %+v", away.Slug, away.Steps)
	}
}

// TestMCPOverHTTPRunEndsWhenTheClientEndsItsSession: over streamable HTTP, a client that
// closes its MCP session (the SDK's client deletes it) has left: the attempt under way ends
// cancelled, the run finishes and is stored, and observatory mcp exits with no Ctrl+C.
//
// A second client session opened meanwhile is refused on each tool call, saying why, and
// its end leaves the run to the first.
func TestMCPOverHTTPRunEndsWhenTheClientEndsItsSession(t *testing.T) {
	browsertest.Ready(t)
	dataDir := t.TempDir()
	url, cs, stop, exited, _ := mcpOverHTTPAt(t, nil, bookingTask, "--data-dir", dataDir, "--no-video", "--approve", "deny", "--attempt", "saves-normally")
	if _, res := callTool(t, cs, "task_intent", nil); res.IsError {
		t.Fatal("task_intent refused for the run's own client")
	}
	other, err := mcp.NewClient(&mcp.Implementation{Name: "second-agent", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connecting a second client: %v", err)
	}
	for name, args := range map[string]map[string]any{"browser_snapshot": nil, "browser_navigate": {"url": "http://127.0.0.1:1/"}, "task_done": {"claim": "done"}} {
		if text, res := callTool(t, other, name, args); !res.IsError || !strings.Contains(text, "another client session is driving this run") {
			t.Errorf("%s from a second client session while the first drives the run:\n%s", name, text)
		}
	}
	if err := other.Close(); err != nil {
		t.Fatalf("closing the second client's session: %v", err)
	}
	page := fillBooking(t, cs, "north")
	if !strings.Contains(page, "Save reservation") {
		t.Fatalf("the agent did not reach the booking form after a second client came and went:\n%s", page)
	}
	if err := cs.Close(); err != nil {
		t.Fatalf("closing the client's session: %v", err)
	}
	select {
	case <-exited:
	case <-time.After(60 * time.Second):
		t.Fatalf("observatory mcp did not end after its client ended the session:\n%s", stop())
	}
	said := stop()
	if !strings.Contains(said, "ended finished with 1 attempts") {
		t.Errorf("the run did not finish with its one attempt:\n%s", said)
	}
	f := exportedRun(t, dataDir)
	if len(f.Run.Attempts) != 1 {
		t.Fatalf("%d attempts, want 1:\n%s", len(f.Run.Attempts), said)
	}
	a := f.Run.Attempts[0]
	if a.Slug != "saves-normally" || a.Terminal != agent.Cancelled || len(a.Steps) != 3 {
		t.Errorf("the attempt the agent left: %s %s after %d steps (%s); want saves-normally cancelled after the agent's 3 steps", a.Slug, a.Terminal, len(a.Steps), a.Reason)
	}
	if a.Claim == nil || a.Claim.Done {
		t.Errorf("the agent never said done, yet its claim is %+v", a.Claim)
	}
}
