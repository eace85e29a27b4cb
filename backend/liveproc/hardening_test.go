package liveproc

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/runner"
)

// TestNobodyBeforeTheWindowIsNotWatching: a window nobody looks at (serve with no page open)
// does not connect, so the run is not watched; when a person comes it connects and is shown
// the ask waiting, and when the last one leaves it disconnects and the ask closes in it.
func TestNobodyBeforeTheWindowIsNotWatching(t *testing.T) {
	data := t.TempDir()
	h, err := Offer(data, Info{RunID: "p1", Command: "observatory run"})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	var someone atomic.Bool
	w := &window{}
	watcher := Watch(data, "desktop", w, someone.Load)
	defer watcher.Close()
	time.Sleep(4 * Poll)
	if h.Watched() {
		t.Fatal("a window with nobody before it counts as watching")
	}
	go h.Approver("a", nil).Approve(context.Background(), agent.ApprovalRequest{Action: "click Send"})
	someone.Store(true)
	until(t, "the window to connect", h.Watched)
	until(t, "the waiting ask to reach the window", w.count(func(w *window) int { return len(w.asked) }))
	someone.Store(false)
	until(t, "the window to disconnect", func() bool { return !h.Watched() })
	until(t, "the window's ask to close", w.count(func(w *window) int { return len(w.closed) }))
	if w.closed[0].Answer != agent.AnswerNone {
		t.Errorf("the ask closed in the window as %q", w.closed[0].Answer)
	}
}

// TestCloseDisconnectsAWindowThatStoppedReading: a window that stops reading while the run
// sends does not keep Close, or the stream's handler, waiting.
func TestCloseDisconnectsAWindowThatStoppedReading(t *testing.T) {
	data := t.TempDir()
	h, err := Offer(data, Info{RunID: "s1", Command: "observatory run"})
	if err != nil {
		t.Fatal(err)
	}
	path, _ := socketPath(h.info.Addr)
	conn, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(conn, "GET /events HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n", host(h.info.Addr), h.info.Token)
	status, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.Contains(status, "200") {
		t.Fatalf("connecting: %q, %v", status, err)
	}
	// the window reads no more; the run sends far more than the sockets hold
	big := strings.Repeat("x", 64<<10)
	for range 400 {
		h.Progress(runner.Progress{RunID: "s1", Kind: runner.Error, Message: big})
	}
	closed := make(chan error, 1)
	go func() { closed <- h.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(writeTimeout):
		t.Fatal("Close waited on a window that stopped reading")
	}
}

// TestTheSweepRemovesWhatDeadProcessesLeft: a lock file nobody holds and a temporary file
// left mid-write long ago go, while a fresh temporary file (being written now) and a held
// lock stay.
func TestTheSweepRemovesWhatDeadProcessesLeft(t *testing.T) {
	data := t.TempDir()
	d := filepath.Join(data, folder)
	if err := makeDir(d); err != nil {
		t.Fatal(err)
	}
	write := func(name string, age time.Duration) string {
		path := filepath.Join(d, name)
		if err := os.WriteFile(path, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-age)
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
		return path
	}
	orphan, stale, fresh := write("gone"+lockExt, 0), write(tmpPrefix+"1", 2*staleTemp), write(tmpPrefix+"2", 0)
	h, err := Offer(data, Info{RunID: "d1", Command: "observatory run"})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for path, want := range map[string]bool{orphan: false, stale: false, fresh: true, h.lockPath: true} {
		if _, err := os.Stat(path); (err == nil) != want {
			t.Errorf("%s: there %v, want %v", filepath.Base(path), err == nil, want)
		}
	}
}

// TestTheFolderIsPrivateAndNoSymlink: a discovery folder others can read is made 0700, and
// one that is a symlink is refused, nothing offered through it.
func TestTheFolderIsPrivateAndNoSymlink(t *testing.T) {
	data := t.TempDir()
	d := filepath.Join(data, folder)
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	h, err := Offer(data, Info{RunID: "m1", Command: "observatory run"})
	if err != nil {
		t.Fatal(err)
	}
	h.Close()
	if st, err := os.Stat(d); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("the folder is %v (%v), want 0700", st.Mode(), err)
	}
	other := t.TempDir()
	linked := t.TempDir()
	if err := os.Symlink(other, filepath.Join(linked, folder)); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if h, err := Offer(linked, Info{RunID: "m2", Command: "observatory run"}); err == nil {
		h.Close()
		t.Fatal("a run was offered through a symlinked folder")
	}
	if left, _ := os.ReadDir(other); len(left) != 0 {
		t.Errorf("the symlink's target was written: %v", left)
	}
}
