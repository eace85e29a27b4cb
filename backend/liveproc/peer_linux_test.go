package liveproc

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"observatory/backend/agent"
)

// TestTheAgentsSideIsRefusedAndRecorded: a process this run started — curl, given the
// socket and the token of the discovery file, and one that left its parent (a daemon's
// double fork, kept a child here by the subreaper) — can neither follow the run nor answer
// its ask; each try is refused, and recorded with the question's answer, who and why. The
// window (this process) still follows and is asked.
func TestTheAgentsSideIsRefusedAndRecorded(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Fatal("curl is needed to stand for the agent's process:", err)
	}
	undo, err := BecomeSubreaper()
	if err != nil {
		t.Fatal(err)
	}
	defer undo()
	data := t.TempDir()
	h, err := Offer(data, Info{RunID: "ag", Command: "observatory run --agent"})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	info, err := readInfo(filepath.Join(data, folder, "ag"+infoExt))
	if err != nil {
		t.Fatal(err)
	}
	path, ok := socketPath(info.Addr)
	if !ok {
		t.Fatalf("the run listens on %q, not a Unix socket", info.Addr)
	}
	w := &window{}
	watcher := Watch(data, "desktop", w, always)
	defer watcher.Close()
	until(t, "the window to connect", h.Watched)
	ctx, cancel := context.WithCancel(context.Background())
	type result struct {
		got agent.Answered
		err error
	}
	done := make(chan result, 1)
	go func() {
		got, err := h.Approver("a", nil).(agent.Witness).Answered(ctx, agent.ApprovalRequest{Action: "POST /api/reservations"})
		done <- result{got, err}
	}()
	until(t, "the ask to reach the window", w.count(func(w *window) int { return len(w.asked) }))

	auth := "Authorization: Bearer " + info.Token
	try := func(args ...string) string {
		out, err := exec.Command(curl, append([]string{"-s", "-m", "10", "-o", "/dev/null", "-w", "%{http_code}", "--unix-socket", path, "-H", auth}, args...)...).Output()
		if err != nil {
			t.Fatalf("curl %v: %v", args, err)
		}
		return string(out)
	}
	if code := try("http://live/events"); code != "403" {
		t.Errorf("the agent's process following the run: status %s, want 403", code)
	}
	if code := try("-H", "Content-Type: application/json", "-d", `{"id":"1","answer":"approve"}`, "http://live/answer"); code != "403" {
		t.Errorf("the agent's process answering: status %s, want 403", code)
	}
	// a daemon: its parent shell exits at once, and it is left to be re-parented
	out := filepath.Join(t.TempDir(), "code")
	daemon := exec.Command("sh", "-c", `(sleep 0.3; "$0" -s -m 10 -o /dev/null -w '%{http_code}' --unix-socket "$1" -H "$2" -H 'Content-Type: application/json' -d '{"id":"1","answer":"approve"}' http://live/answer > "$3") & exit 0`, curl, path, auth, out)
	if err := daemon.Run(); err != nil {
		t.Fatal(err)
	}
	until(t, "the daemon's try", func() bool { b, _ := os.ReadFile(out); return len(b) == 3 })
	if b, _ := os.ReadFile(out); string(b) != "403" {
		t.Errorf("the agent's daemon answering: status %s, want 403", b)
	}
	cancel()
	r := <-done
	if r.got.Answer != agent.AnswerNone {
		t.Fatalf("the ask was answered %q by %q", r.got.Answer, r.got.By)
	}
	if len(r.got.Refused) != 3 {
		t.Fatalf("refused %+v, want the follow, the answer and the daemon's answer", r.got.Refused)
	}
	for _, f := range r.got.Refused {
		if !strings.Contains(f.By, "curl") || !strings.Contains(f.Why, "the agent's side") || !strings.Contains(f.Why, "tried to") || f.At.IsZero() {
			t.Errorf("refusal recorded as %+v", f)
		}
	}
}

// TestTheMCPClientIsTheAgentsSide: with RefuseClient, the process that started this one is
// on the agent's side; without, it is not, and this process never is.
func TestTheMCPClientIsTheAgentsSide(t *testing.T) {
	parent := Peer{PID: os.Getppid(), Known: true}
	if why := agentSide(parent, true); !strings.Contains(why, "MCP client") {
		t.Errorf("the client: %q", why)
	}
	if why := agentSide(parent, false); why != "" {
		t.Errorf("the parent of a run that is no MCP server: %q", why)
	}
	if why := agentSide(Peer{PID: os.Getpid(), Known: true}, true); why != "" {
		t.Errorf("this process: %q", why)
	}
	if why := agentSide(Peer{PID: 1 << 30, Known: true}, false); !strings.Contains(why, "cannot be told") {
		t.Errorf("a process gone: %q", why)
	}
}

// TestAWindowsCallerOnTheAgentsSideIsFound: a process that a run's process started (curl,
// started by a shell whose discovery file offers a run), calling a window's HTTP API over
// loopback TCP, is found by its connection and is the agent's side; this process, which
// started the shell but is no run's, is not.
func TestAWindowsCallerOnTheAgentsSideIsFound(t *testing.T) {
	data := t.TempDir()
	whys := make(chan string, 2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		local := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		whys <- AgentSide(data, TCPPeer(local.String(), r.RemoteAddr))
	}))
	defer srv.Close()
	run := exec.Command("sh", "-c", `sleep 0.5; curl -s -m 10 -d '{}' "$0/api/Approvals/Answer"`, srv.URL)
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	if err := makeDir(dir(data)); err != nil {
		t.Fatal(err)
	}
	if err := writeInfo(filepath.Join(dir(data), "tcp"+infoExt), Info{RunID: "tcp", Addr: "unix:/nowhere", Token: "t", PID: run.Process.Pid, Command: "observatory run --agent"}); err != nil {
		t.Fatal(err)
	}
	if err := run.Wait(); err != nil {
		t.Fatal(err)
	}
	if why := <-whys; !strings.Contains(why, "observatory run --agent, pid") || !strings.Contains(why, "the agent's side") {
		t.Errorf("curl, a child of the run's process: %q", why)
	}
	resp, err := http.Post(srv.URL+"/api/Approvals/Answer", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if why := <-whys; why != "" {
		t.Errorf("this process: %q", why)
	}
}
