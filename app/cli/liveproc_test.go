//go:build linux

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/cookiejar"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"observatory/app"
	"observatory/backend/agent"
	"observatory/backend/browser/browsertest"
	"observatory/backend/runner"
)

// serveWindow is `observatory serve` on a data folder, as a process of its own, and a client of
// its HTTP API, as the page it serves calls it.
type serveWindow struct {
	base   string
	client *http.Client
	// address is the one serve printed, with its session token.
	address string
}

// openWindow starts serve on dataDir, opens its printed address (which sets the session
// cookie) and connects to its events, as the page does: a serve with no page open has nobody
// before it, and follows no run.
// serve is started apart from this process (startApart), as a person's window is: one this
// process (a run in it, or the MCP client of an observatory mcp it started) had started would
// be the agent's side, which may not answer.
func openWindow(t *testing.T, dataDir string) *serveWindow {
	t.Helper()
	p := startApart(t, "serve", "--addr", "127.0.0.1:0", "--data-dir", dataDir)
	p.waitToSay(t, "Ctrl+C stops", 30*time.Second)
	m := servingAt.FindStringSubmatch(p.said())
	if m == nil {
		t.Fatalf("serve printed no address:\n%s", p.said())
	}
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	w := &serveWindow{base: strings.SplitN(m[1], "/?", 2)[0], client: &http.Client{Jar: jar, Timeout: time.Minute}, address: m[1]}
	resp, err := w.client.Get(m[1])
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	events, _, err := (&websocket.Dialer{Jar: jar}).Dial("ws"+strings.TrimPrefix(w.base, "http")+"/api/events", nil)
	if err != nil {
		t.Fatalf("connecting to the window's events: %v", err)
	}
	t.Cleanup(func() { events.Close() })
	go func() { // read as the page does, or the window drops it
		for {
			if _, _, err := events.NextReader(); err != nil {
				return
			}
		}
	}()
	return w
}

// call calls service.method with args over serve's API and decodes its result into out;
// it returns the API's error message, "" when the call succeeded.
func (w *serveWindow) call(t *testing.T, service, method string, out any, args ...any) string {
	t.Helper()
	if args == nil {
		args = []any{}
	}
	body, _ := json.Marshal(args)
	resp, err := w.client.Post(w.base+"/api/"+service+"/"+method, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%s.%s answered %s: %v", service, method, data, err)
	}
	if r.Error != nil {
		return r.Error.Message
	}
	if out != nil {
		if err := json.Unmarshal(r.Result, out); err != nil {
			t.Fatalf("%s.%s result %s: %v", service, method, r.Result, err)
		}
	}
	return ""
}

// pending waits until the window shows n approval requests, and returns them.
func (w *serveWindow) pending(t *testing.T, n int) []app.ApprovalAsk {
	t.Helper()
	var asks []app.ApprovalAsk
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		asks = nil
		if msg := w.call(t, "Approvals", "Pending", &asks); msg != "" {
			t.Fatalf("Approvals.Pending: %s", msg)
		}
		if len(asks) == n {
			return asks
		}
		if time.Now().After(deadline) {
			t.Fatalf("the window shows %d approval requests, want %d: %+v", len(asks), n, asks)
		}
	}
}

// answerOnce answers the one approval request the window shows, which must be of run and
// of attempt slug, and returns it.
func (w *serveWindow) answerOnce(t *testing.T, runID, slug, answer string) app.ApprovalAsk {
	t.Helper()
	a := w.pending(t, 1)[0]
	if a.RunID != runID || a.Slug != slug || !a.Open {
		t.Errorf("the window asks %+v, want an open request of run %s, attempt %s", a, runID, slug)
	}
	if msg := w.call(t, "Approvals", "Answer", nil, a.ID, answer); msg != "" {
		t.Fatalf("Approvals.Answer %s: %s", answer, msg)
	}
	return a
}

// clickAsync clicks the element in the background, as the agent's call that waits for an
// approval; the result comes on the channel (an error when the call failed).
func clickAsync(cs *mcp.ClientSession, target string) <-chan error {
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		params := &mcp.CallToolParams{Name: "browser_click", Arguments: map[string]any{"target": target}}
		params.SetProgressToken("click") // told while it waits for a person (see mcpserver.Waiting)
		res, err := cs.CallTool(ctx, params)
		switch {
		case err != nil:
			done <- err
		case res.IsError:
			var b strings.Builder
			for _, c := range res.Content {
				if tc, ok := c.(*mcp.TextContent); ok {
					b.WriteString(tc.Text)
				}
			}
			done <- errors.New(b.String())
		default:
			done <- nil
		}
	}()
	return done
}

// TestAWindowAnswersTheApprovalsOfAnMCPRun: `observatory mcp` with no terminal, under
// --approve ask, puts its irreversible clicks to the serve window open on the same data
// folder. The window shows the run live (Runs.Going: the session's steps, the process that
// runs it); approving there lets the clicks act and the gate says done; denying refuses the
// next attempt's click and ends it rejected. The run file records both answers and verifies.
func TestAWindowAnswersTheApprovalsOfAnMCPRun(t *testing.T) {
	browsertest.Ready(t)
	dataDir := t.TempDir()
	w := openWindow(t, dataDir)
	cs, stop, _, said := mcpOverHTTP(t, nil, guardedBooking(t), "--data-dir", dataDir, "--no-video", "--approve", "ask",
		"--attempt", "guarded")

	page, _ := callTool(t, cs, "browser_snapshot", nil)
	clicked := clickAsync(cs, refOf(t, page, "button", "Reserve slot"))
	w.pending(t, 1)
	var going app.GoingRun
	w.call(t, "Runs", "Going", &going)
	ask := w.answerOnce(t, going.ID, "guarded", "approve")
	if err := <-clicked; err != nil {
		t.Fatalf("the click the window approved: %v\n%s", err, said())
	}
	if !strings.Contains(ask.Request.Action, "Reserve slot") {
		t.Errorf("the window was asked to approve %q", ask.Request.Action)
	}
	if !strings.HasPrefix(going.Elsewhere, "observatory mcp, pid ") {
		t.Errorf("the run going is shown as run %q elsewhere %q, want observatory mcp's", going.ID, going.Elsewhere)
	}
	page, _ = callTool(t, cs, "browser_snapshot", nil)
	page, _ = callTool(t, cs, "browser_type", map[string]any{"target": refOf(t, page, "textbox", "Reservation title"), "text": "Spectral scan"})
	page, _ = callTool(t, cs, "browser_select_option", map[string]any{"target": refOf(t, page, "combobox", "Room"), "values": []string{"north"}})
	clicked = clickAsync(cs, refOf(t, page, "button", "Save reservation"))
	w.answerOnce(t, going.ID, "guarded", "approve")
	if err := <-clicked; err != nil {
		t.Fatalf("the save the window approved: %v", err)
	}
	callTool(t, cs, "browser_wait_for", map[string]any{"textGone": "Saving", "time": 5})
	if got := claimDone(t, cs, "Saved."); !got.Gate.Done {
		t.Errorf("the gate after the approved save: %+v", got)
	}
	// the window was shown the session's steps live, as a run of its own
	w.call(t, "Runs", "Going", &going)
	steps := 0
	for _, e := range going.Events {
		if e.Kind == runner.StepDone || (e.Kind == runner.AttemptFinished && e.Attempt != nil && e.Attempt.Slug == "guarded") {
			steps++
		}
	}
	if steps == 0 {
		t.Errorf("the window was shown none of the run's steps: %+v", going.Events)
	}

	page, _ = callTool(t, cs, "browser_snapshot", nil) // the next attempt
	clicked = clickAsync(cs, refOf(t, page, "button", "Reserve slot"))
	w.answerOnce(t, going.ID, "guarded-2", "deny")
	if err := <-clicked; err == nil || !strings.Contains(err.Error(), "deny") {
		t.Errorf("the click the window denied: %v", err)
	}
	stop()
	f := exportedRun(t, dataDir)
	if len(f.Run.Attempts) != 2 {
		t.Fatalf("%d attempts, want 2", len(f.Run.Attempts))
	}
	approved, denied := f.Run.Attempts[0], f.Run.Attempts[1]
	if approved.Terminal != agent.Completed {
		t.Errorf("the approved attempt ended %s: %s", approved.Terminal, approved.Reason)
	}
	answers := map[agent.ApprovalAnswer]int{}
	for _, a := range []agent.Attempt{approved, denied} {
		for _, s := range a.Steps {
			for _, ap := range s.Approvals {
				answers[ap.Answer]++
			}
		}
	}
	if answers[agent.AnswerApprove] != 2 || answers[agent.AnswerDeny] != 1 {
		t.Errorf("the recorded answers: %v, want 2 approvals and a denial", answers)
	}
	// A denied click is an error result the client handles (Playwright MCP's way): the attempt
	// goes on until the client leaves, and it is not done.
	if denied.Terminal == agent.Completed {
		t.Errorf("the denied attempt ended %s: %s", denied.Terminal, denied.Reason)
	}
	if left, _ := filepath.Glob(filepath.Join(dataDir, "live", "*")); len(left) != 0 {
		t.Errorf("the run left %v in the data folder", left)
	}
}

// TestAWindowsAskClosesWhenTheMCPProcessIsKilled: `observatory mcp` killed while its click
// waits for the window's approval: the window's request closes, it no longer shows the run
// going, the discovery file the process left is swept, and nothing hangs. The window is a
// serve the MCP client (this test) did not start, as a person's is.
func TestAWindowsAskClosesWhenTheMCPProcessIsKilled(t *testing.T) {
	browsertest.Ready(t)
	dataDir := t.TempDir()
	w := openWindow(t, dataDir)
	cs, cmd, _, _ := mcpProcess(t, guardedBooking(t), "--data-dir", dataDir, "--no-video", "--approve", "ask")
	page, _ := callTool(t, cs, "browser_snapshot", nil)
	clicked := clickAsync(cs, refOf(t, page, "button", "Reserve slot"))
	w.pending(t, 1)
	if left, _ := filepath.Glob(filepath.Join(dataDir, "live", "*.json")); len(left) != 1 {
		t.Fatalf("the run's discovery files: %v", left)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	w.pending(t, 0)
	select {
	case err := <-clicked:
		if err == nil {
			t.Error("the click of a killed process succeeded")
		}
	case <-time.After(30 * time.Second):
		t.Error("the agent's call still waits after its server was killed")
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		left, _ := filepath.Glob(filepath.Join(dataDir, "live", "*"))
		var going app.GoingRun
		w.call(t, "Runs", "Going", &going)
		if len(left) == 0 && going.ID == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the killed process's offer: files %v, the window shows run %q going", left, going.ID)
		}
	}
}

// TestAWindowApprovesAnOutsideAgentsHeldSave: `run --agent` with no terminal, under --approve
// ask, holds the Puppeteer agent's save at the network and puts it to the serve window open on
// its data folder; the window approves each request held (the page's own POSTs too), the save
// goes through, the gate says done, and the run file records the approvals, each by the serve
// window (its pid as the system names it), and verifies.
func TestAWindowApprovesAnOutsideAgentsHeldSave(t *testing.T) {
	needAgents(t)
	dataDir := t.TempDir()
	w := openWindow(t, dataDir)
	done := make(chan struct{})
	answered := make(chan int, 1)
	go func() {
		n := 0
		defer func() { answered <- n }()
		for {
			select {
			case <-done:
				return
			case <-time.After(50 * time.Millisecond):
			}
			var asks []app.ApprovalAsk
			w.call(t, "Approvals", "Pending", &asks)
			for _, a := range asks {
				if w.call(t, "Approvals", "Answer", nil, a.ID, "approve") == "" {
					n++
				}
			}
		}
	}()
	// the run is a process of its own, as a person starts it: the window is no child of it
	file, errOut := runAgentProcess(t, approvalTask, dataDir, "puppeteer-book.js", "", "--attempt", "saves-normally", "--approve", "ask")
	close(done)
	if n := <-answered; n == 0 {
		t.Errorf("the window answered nothing:\n%s", errOut)
	}
	f, err := readRunFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if a := f.Run.Attempts[0]; !a.Verdicts.Gate.Done || a.Terminal != agent.Completed {
		t.Errorf("gate %v, %s (%s): want the save the window approved done\n%s", a.Verdicts.Gate.Done, a.Terminal, a.Reason, errOut)
	}
	held := heldSaves(t, file)
	if len(held) == 0 {
		t.Fatal("no step records the held save")
	}
	for _, a := range held {
		if a.Answer != agent.AnswerApprove || !strings.HasPrefix(a.By, "window (serve, pid ") || len(a.Refused) != 0 {
			t.Errorf("the held save is recorded as %s by %q, refused %+v; want approved by the serve window", a.Answer, a.By, a.Refused)
		}
	}
	if code, _, out := run(t, "verify", file); code != 0 {
		t.Errorf("the run file does not verify: %s", out)
	}
}
