//go:build linux

package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
)

// waitExit waits for cmd to exit, failing t past d.
func waitExit(t *testing.T, cmd *exec.Cmd, d time.Duration, stderr string) {
	t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(d):
		b, _ := os.ReadFile(stderr)
		t.Fatalf("observatory mcp still runs %s after its client went away:\n%s", d, b)
	}
}

// sessionRun is the one run of a data folder, finished, with its attempts as its run file
// holds them.
func sessionRun(t *testing.T, dataDir string) agent.Run {
	t.Helper()
	return exportedRun(t, dataDir).Run
}

// TestMCPFloodHugeArgumentsAndAClientDyingMidCall: a huge argument is refused before
// anything runs; a call with arguments of the wrong type and an unknown tool get errors; a
// flood of concurrent calls is served one at a time, each answered; and a client that dies
// while a call is under way ends the session honestly: the process exits, the attempt under
// way ends cancelled and the run is finished, nothing left running.
func TestMCPFloodHugeArgumentsAndAClientDyingMidCall(t *testing.T) {
	browsertest.Ready(t)
	dataDir := t.TempDir()
	cs, cmd, stderr, pipe := mcpProcess(t, "--lab", "booking", "--data-dir", dataDir, "--no-video", "--approve", "deny", "--attempt", "saves-normally")

	text, res := callTool(t, cs, "browser_type", map[string]any{"target": "#title", "text": strings.Repeat("x", 100<<10)})
	if !res.IsError || !strings.Contains(text, "over the 64 KiB") {
		t.Errorf("a 100 KiB text:\n%.300s", text)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "browser_click", Arguments: map[string]any{"target": 5}}); err == nil && !res.IsError {
		t.Error("a target that is a number was accepted")
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "browser_teleport", Arguments: map[string]any{}}); err == nil {
		t.Error("an unknown tool was accepted")
	}

	var wg sync.WaitGroup
	errs := make(chan string, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name, args := "browser_snapshot", map[string]any{}
			if i%4 == 0 {
				name, args = "browser_press_key", map[string]any{"key": "Shift"}
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
			if err != nil {
				errs <- err.Error()
			} else if res.IsError && name == "browser_snapshot" {
				errs <- "a snapshot in the flood failed"
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("flood: %s", e)
	}

	slow := make(chan struct{})
	go func() {
		defer close(slow)
		_, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "browser_wait_for", Arguments: map[string]any{"textGone": "Lab reservations", "time": 20}})
	}()
	pipe.waitSent(t, `"browser_wait_for"`, 15*time.Second) // the call is the server's to read
	pipe.die()                                             // the client dies mid-call: its end of the pipe closes
	waitExit(t, cmd, 15*time.Second, stderr)
	<-slow
	run := sessionRun(t, dataDir)
	presses := 0
	for i, a := range run.Attempts {
		if !a.Terminal.Valid() {
			t.Errorf("%s has no terminal state", a.Slug)
		}
		if last := i == len(run.Attempts)-1; last && (a.Terminal != agent.Cancelled || a.Claim == nil || a.Claim.Done) {
			t.Errorf("the attempt under way ended %s (%s), claim %+v; want cancelled, no done claim", a.Terminal, a.Reason, a.Claim)
		}
		for _, st := range a.Steps {
			if st.Action.Kind == agent.ActPress {
				presses++
			}
		}
	}
	if presses != 10 {
		t.Errorf("%d key presses recorded, want the flood's 10, each a step", presses)
	}
}

// TestMCPMalformedRequestEndsTheSession: a line that is not JSON-RPC, sent in the middle of a
// session, is answered with an error or ends the connection, never hangs it; once the client
// goes the process exits, the attempt under way ends cancelled and the run is finished.
func TestMCPMalformedRequestEndsTheSession(t *testing.T) {
	browsertest.Ready(t)
	dataDir := t.TempDir()
	stderr := filepath.Join(t.TempDir(), "stderr")
	f, err := os.Create(stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperArgsEnv+"="+strings.Join([]string{"mcp", "--lab", "booking", "--data-dir", dataDir, "--no-video"}, "\x1f"))
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
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 1<<20), 16<<20)
	send := func(s string) {
		if _, err := io.WriteString(stdin, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	answer := func(id int) {
		for lines.Scan() {
			var m struct {
				ID *int `json:"id"`
			}
			if json.Unmarshal(lines.Bytes(), &m) == nil && m.ID != nil && *m.ID == id {
				return
			}
		}
		t.Fatalf("no answer to request %d", id)
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	answer(1)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"browser_snapshot","arguments":{}}}`)
	answer(2)
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"browser_click","arguments":}}`)
	send(`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`)
	answered := make(chan bool, 1)
	go func() {
		for lines.Scan() {
			var m struct {
				ID *int `json:"id"`
			}
			if json.Unmarshal(lines.Bytes(), &m) == nil && m.ID != nil && *m.ID == 4 {
				answered <- true
				break
			}
		}
		close(answered)
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case <-answered: // it read past the malformed request, or ended the connection at it
	case <-time.After(30 * time.Second):
		t.Fatal("no answer and no end after a malformed request")
	}
	_ = stdin.Close()
	waitExit(t, cmd, 60*time.Second, stderr)
	run := sessionRun(t, dataDir)
	if len(run.Attempts) != 1 || run.Attempts[0].Terminal != agent.Cancelled {
		t.Errorf("after a malformed request: attempts %+v", run.Attempts)
	}
}
