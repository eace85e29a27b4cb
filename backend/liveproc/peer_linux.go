package liveproc

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// peerOf is the process at the other end of c, a Unix socket connection: SO_PEERCRED.
func peerOf(c net.Conn) Peer {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return Peer{Known: true, Foreign: true} // no Unix socket: nobody can tell who, refused
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return Peer{Known: true, Foreign: true}
	}
	var cred *unix.Ucred
	cerr := raw.Control(func(fd uintptr) { cred, err = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED) })
	if cerr != nil || err != nil || cred == nil {
		return Peer{Known: true, Foreign: true}
	}
	foreign := int(cred.Uid) != os.Geteuid() && cred.Uid != 0
	return Peer{PID: int(cred.Pid), Known: true, Foreign: foreign}
}

// lineage is pid's parent, its parent's, and so on up to the first process, from
// /proc/PID/stat.
func lineage(pid int) ([]int, error) {
	var chain []int
	for n := 0; pid > 1 && n < 4096; n++ {
		ppid, err := parentOf(pid)
		if err != nil {
			return nil, err
		}
		chain = append(chain, ppid)
		pid = ppid
	}
	return chain, nil
}

// parentOf is pid's parent, the fourth field of /proc/PID/stat (after the command, which may
// hold spaces and parentheses, so read from its last ')').
func parentOf(pid int) (int, error) {
	if pid <= 0 {
		return 0, fmt.Errorf("no process %d", pid)
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[i+1:]))
	if i < 0 || len(f) < 2 {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected %q", pid, b)
	}
	return strconv.Atoi(f[1])
}

// commandLine is pid's command line, its arguments joined by spaces.
func commandLine(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return strings.ReplaceAll(string(bytes.TrimRight(b, "\x00")), "\x00", " ")
}

// BecomeSubreaper makes this process the subreaper of all it starts, until undo: a process
// it started that leaves its parent (a daemon's double fork) is re-parented here, not to
// init, so it is still found on the agent's side.
func BecomeSubreaper() (undo func(), err error) {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return func() {}, err
	}
	return func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0) }, nil
}
