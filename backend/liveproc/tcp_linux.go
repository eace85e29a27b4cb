package liveproc

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// TCPPeer is the process at the other end of a loopback TCP connection a server took at
// local from remote (an HTTP request's local and remote addresses): the socket whose own
// port is remote's and whose peer port is local's, in /proc/net/tcp and tcp6, and the
// process holding it, in /proc/*/fd. Unknown when it cannot be found.
func TCPPeer(local, remote string) Peer {
	_, lport, err1 := net.SplitHostPort(local)
	_, rport, err2 := net.SplitHostPort(remote)
	lp, err3 := strconv.Atoi(lport)
	rp, err4 := strconv.Atoi(rport)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		return Peer{}
	}
	inode := socketInode(fmt.Sprintf(":%04X", rp), fmt.Sprintf(":%04X", lp))
	if inode == "" {
		return Peer{}
	}
	if pid := holderOf("socket:[" + inode + "]"); pid > 0 {
		return Peer{PID: pid, Known: true}
	}
	return Peer{}
}

// socketInode is the inode of the TCP socket whose local address ends in own and remote
// address in peer (":PORT" in hex).
func socketInode(own, peer string) string {
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(table)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) > 9 && strings.HasSuffix(f[1], own) && strings.HasSuffix(f[2], peer) {
				return f[9]
			}
		}
	}
	return ""
}

// holderOf is the process one of whose descriptors is link ("socket:[INODE]"); 0 for none.
func holderOf(link string) int {
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		fds, _ := os.ReadDir(filepath.Join("/proc", p.Name(), "fd"))
		for _, fd := range fds {
			if l, err := os.Readlink(filepath.Join("/proc", p.Name(), "fd", fd.Name())); err == nil && l == link {
				return pid
			}
		}
	}
	return 0
}
