// Package liveproc lets a window (the desktop, serve) follow the runs that other processes
// of the same data folder are running (observatory mcp, observatory run, run --agent): it is
// shown their progress as it happens and asked their approvals, and its answer goes back to
// the process that asked.
//
// A process running a run offers it (Offer): it listens on a Unix socket of its own (on
// Windows, 127.0.0.1 at a port of its own) and writes where, with a random token, to a
// discovery file in the data folder:
//
//	<data>/live/<run-id>.json   the run's Info (0600): address, token, pid, command, task
//	<data>/live/<run-id>.lock   a lock file held while the process lives (see filelock)
//	<data>/live/<run-id>.sock   its socket (0600; in a private temporary folder when that
//	                            path is too long for a socket)
//
// A window watches the folder (Watch), connects to each run it finds with the token and
// reads its events: the run's progress so far, then as it comes, and its approval asks. A
// discovery file whose lock nobody holds was left by a process that died, and is swept.
// Only this machine's programs that can read the data folder can connect: the socket is in
// its private folder (on Windows the address is loopback), every request needs the token, a
// Host other than the address and any request a web page sends (an Origin or Sec-Fetch-Site
// header) are refused. None of that is what keeps the agent out: it runs as the same user
// and can read all of it. What does is the peer process the system names for each
// connection (peerOf): the agent's side never follows a run nor answers it (agentSide).
package liveproc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"observatory/backend/agent"
	"observatory/backend/internal/filelock"
	"observatory/backend/jsonstrict"
	"observatory/backend/runner"
)

// folder is where discovery files live in the data folder.
const folder = "live"

const (
	infoExt = ".json"
	lockExt = ".lock"
)

// maxInfo bounds a discovery file read.
const maxInfo = 64 << 10

// Info is a run offered to windows, as its discovery file says.
type Info struct {
	RunID string `json:"run_id"`
	// Addr is where the process listens, unix:/path/of/run.sock (on Windows 127.0.0.1:PORT);
	// Token is what each request carries.
	Addr  string `json:"addr"`
	Token string `json:"token"`
	PID   int    `json:"pid"`
	// Command names what runs it, such as "observatory mcp".
	Command string `json:"command"`
	// Client is, for observatory mcp over standard input, the MCP client that started it
	// (the process's parent): it and all it starts are the agent's side, as is all the
	// process starts (see AgentSide).
	Client  int       `json:"client,omitempty"`
	Task    string    `json:"task"`
	Started time.Time `json:"started"`
}

// Where says, in words, which process runs the run: "observatory mcp, pid 4242".
func (i Info) Where() string {
	return fmt.Sprintf("%s, pid %d", i.Command, i.PID)
}

// Message is one event of an offered run's stream: a progress event, numbered from 1 in the
// order the process sent it, or an approval ask opening or closing.
type Message struct {
	Seq      uint64           `json:"seq,omitempty"`
	Progress *runner.Progress `json:"progress,omitempty"`
	Ask      *Ask             `json:"ask,omitempty"`
}

// Ask is one approval request of an offered run.
type Ask struct {
	// ID names the ask in the process's answers; it is not the window's own id.
	ID      string                `json:"id"`
	Slug    string                `json:"slug"`
	Request agent.ApprovalRequest `json:"request"`
	// Open is true while the ask waits; a closed one says what came of it.
	Open   bool                 `json:"open"`
	Answer agent.ApprovalAnswer `json:"answer,omitempty"`
}

// answer is the body of an answer sent back to the process.
type answer struct {
	ID     string               `json:"id"`
	Answer agent.ApprovalAnswer `json:"answer"`
	// Window is what the window is, "desktop" or "serve", for the record of who answered.
	Window string `json:"window,omitempty"`
}

// dir is the discovery folder of dataDir.
func dir(dataDir string) string { return filepath.Join(dataDir, folder) }

// tmpPrefix begins the name of a discovery file being written (see writeInfo); staleTemp is
// how old one must be to be debris: writing it takes a moment.
const (
	tmpPrefix = ".tmp-"
	staleTemp = time.Minute
)

// makeDir creates the discovery folder d, or makes the one there private: a symlink is
// refused (it could lead a window's writes or reads elsewhere), and the folder is made 0700.
func makeDir(d string) error {
	if err := os.MkdirAll(d, 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", d, err)
	}
	st, err := os.Lstat(d)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a folder (a symlink?): remove it, and the runs are offered again", d)
	}
	if st.Mode().Perm() != 0o700 {
		if err := os.Chmod(d, 0o700); err != nil {
			return fmt.Errorf("making %s private: %w", d, err)
		}
	}
	return nil
}

// alive says whether the process that offered run id in discovery folder d still holds its
// lock; the discovery file of one that died is deleted, whoever wrote it.
func alive(d, id string) bool {
	held, err := filelock.Held(filepath.Join(d, id+lockExt))
	if err != nil || held {
		return err == nil
	}
	_ = os.Remove(filepath.Join(d, id+infoExt))
	_ = os.Remove(filepath.Join(d, id+sockExt))
	return false
}

// sweep removes from d what the processes that died left: their discovery files, and the
// debris.
func sweep(d string) {
	entries, _ := os.ReadDir(d)
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), infoExt); ok && !strings.HasPrefix(id, ".") {
			alive(d, id)
		} else {
			debris(d, e)
		}
	}
}

// debris removes entry e of discovery folder d if a process that died left it: a lock file
// nobody holds (filelock.Held deletes it), or a discovery file it was still writing.
func debris(d string, e os.DirEntry) {
	name := e.Name()
	switch {
	case strings.HasPrefix(name, tmpPrefix):
		if st, err := e.Info(); err == nil && time.Since(st.ModTime()) > staleTemp {
			_ = os.Remove(filepath.Join(d, name))
		}
	case strings.HasSuffix(name, lockExt) && !strings.HasPrefix(name, "."):
		_, _ = filelock.Held(filepath.Join(d, name))
	}
}

// readInfo reads and checks a discovery file: strict JSON, an address on 127.0.0.1 only (a
// file planted in the folder must not send a window elsewhere) and a token.
// Only a regular file is read: a symlink is not followed, and a FIFO, which would block the
// read, is not opened.
func readInfo(path string) (Info, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return Info{}, err
	}
	if !st.Mode().IsRegular() {
		return Info{}, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return Info{}, err
	}
	defer f.Close()
	if opened, err := f.Stat(); err != nil || !os.SameFile(st, opened) {
		return Info{}, fmt.Errorf("%s changed as it was read", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxInfo+1))
	if err != nil {
		return Info{}, err
	}
	if len(data) > maxInfo {
		return Info{}, fmt.Errorf("%s is larger than %d KiB", path, maxInfo>>10)
	}
	var info Info
	if err := jsonstrict.Unmarshal(data, &info); err != nil {
		return Info{}, fmt.Errorf("%s: %w", path, err)
	}
	if !validAddr(info.Addr) {
		return Info{}, fmt.Errorf("%s: address %q is neither a socket path nor on this machine's loopback", path, info.Addr)
	}
	if info.Token == "" || info.RunID == "" || strings.ContainsAny(info.RunID, `/\`) {
		return Info{}, errors.New(path + ": no token or run id")
	}
	return info, nil
}
