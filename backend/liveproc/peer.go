package liveproc

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"observatory/backend/termsafe"
)

// Peer is the process at the other end of a connection to a run's live channel, as the
// operating system tells it (see peerOf): never what the process says of itself.
type Peer struct {
	PID int
	// Known is false where the system cannot tell (Windows: a loopback connection).
	Known bool
	// Foreign is a process of another user (root's excepted), or one whose identity could
	// not be read: never a window of this data folder.
	Foreign bool
}

// peerKey holds a connection's Peer in its requests' context.
type peerKey struct{}

// withPeer is the http.Server ConnContext that puts each connection's Peer in its context.
func withPeer(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, peerKey{}, peerOf(c))
}

// peerIn is the Peer of the connection a request came on.
func peerIn(ctx context.Context) Peer {
	p, _ := ctx.Value(peerKey{}).(Peer)
	return p
}

// agentSide says why peer p is on the agent's side of the run, and must neither follow its
// approvals nor answer them; empty when it is not. The agent's side is everything this
// process started (the agent of run --agent and all it starts: this process is their
// subreaper where the system has one, so one that leaves its parent is still found here) and,
// when clientToo, this process's parent and all it starts (the MCP client that started
// observatory mcp over standard input). A peer whose lineage cannot be read is refused too;
// this process itself is not the agent's.
func agentSide(p Peer, clientToo bool) string {
	self, parent := os.Getpid(), os.Getppid()
	switch {
	case p.Foreign:
		return "another user's process, or one the system could not name"
	case !p.Known || p.PID == self:
		return ""
	}
	chain, err := lineage(p.PID)
	if err != nil {
		return fmt.Sprintf("who it is cannot be told (%v)", err)
	}
	switch {
	case slices.Contains(chain, self):
		return fmt.Sprintf("a process this run (pid %d) started, or one started by it: the agent's side", self)
	case clientToo && slices.Contains(append(chain, p.PID), parent):
		return fmt.Sprintf("the MCP client that started this server (pid %d), or a process it started: the agent's side", parent)
	}
	return ""
}

// describe names process pid for a record: "pid 4242 (node agent.js)".
func describe(pid int) string {
	cmd := strings.TrimSpace(commandLine(pid))
	if r := []rune(cmd); len(r) > 80 {
		cmd = string(r[:80]) + "…"
	}
	if cmd == "" {
		return fmt.Sprintf("pid %d", pid)
	}
	return fmt.Sprintf("pid %d (%s)", pid, termsafe.String(cmd))
}

// AgentSide says why p, a process using a window of dataDir (serve's API), is on the agent's
// side of a run offered there, and must not answer its approvals: a process a run's own
// process started, or the MCP client of an observatory mcp (Info.Client) or one it started.
// Empty when it is on no run's agent side, or is unknown.
func AgentSide(dataDir string, p Peer) string {
	if !p.Known {
		return ""
	}
	chain, err := lineage(p.PID)
	if err != nil {
		return fmt.Sprintf("who it is cannot be told (%v)", err)
	}
	d := dir(dataDir)
	entries, _ := os.ReadDir(d)
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), infoExt)
		if !ok || strings.HasPrefix(id, ".") {
			continue
		}
		info, err := readInfo(filepath.Join(d, e.Name()))
		if err != nil || info.PID == os.Getpid() {
			continue // a run this window's own process offers has no agent apart from it
		}
		switch {
		case slices.Contains(chain, info.PID):
			return fmt.Sprintf("a process %s started, or one started by it: the agent's side", info.Where())
		case info.Client > 1 && (p.PID == info.Client || slices.Contains(chain, info.Client)):
			return fmt.Sprintf("the MCP client that started %s (pid %d), or a process it started: the agent's side", info.Where(), info.Client)
		}
	}
	return ""
}
