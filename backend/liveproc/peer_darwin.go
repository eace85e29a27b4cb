package liveproc

import (
	"fmt"
	"net"
	"strings"

	"golang.org/x/sys/unix"
)

// peerOf is the process at the other end of c, a Unix socket connection: LOCAL_PEERPID.
func peerOf(c net.Conn) Peer {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return Peer{Known: true, Foreign: true}
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return Peer{Known: true, Foreign: true}
	}
	pid := -1
	cerr := raw.Control(func(fd uintptr) { pid, err = unix.GetsockoptInt(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERPID) })
	if cerr != nil || err != nil {
		return Peer{Known: true, Foreign: true}
	}
	return Peer{PID: pid, Known: true}
}

// lineage is pid's parent, its parent's, and so on up to the first process (sysctl
// kern.proc.pid).
func lineage(pid int) ([]int, error) {
	var chain []int
	for n := 0; pid > 1 && n < 4096; n++ {
		kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
		if err != nil || kp.Proc.P_pid != int32(pid) {
			return nil, fmt.Errorf("no process %d", pid)
		}
		pid = int(kp.Eproc.Ppid)
		chain = append(chain, pid)
	}
	return chain, nil
}

// commandLine is pid's command name.
func commandLine(pid int) string {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return ""
	}
	return strings.TrimRight(string(kp.Proc.P_comm[:]), "\x00")
}

// BecomeSubreaper does nothing on macOS, which has no subreaper: a process the agent starts
// that leaves its parent is no longer found on the agent's side (see docs/security.md).
func BecomeSubreaper() (undo func(), err error) { return func() {}, nil }
