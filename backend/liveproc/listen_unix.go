//go:build !windows

package liveproc

import (
	"net"
	"os"
	"path/filepath"
)

// sockExt ends the name of a run's socket in the discovery folder.
const sockExt = ".sock"

// maxSocketPath is the longest socket path every Unix takes (macOS: 104 bytes with the NUL).
const maxSocketPath = 100

// listen listens for the windows of run id on a Unix socket, whose peer the system names
// (see peerOf): in discovery folder d (0700), or, when that path is too long for a socket,
// in a private folder of the system's temporary folder that done removes. The socket is
// close-on-exec, as every socket Go opens: nothing this process starts inherits it.
func listen(d, id string) (ln net.Listener, addr string, done func(), err error) {
	path, done := filepath.Join(d, id+sockExt), func() {}
	if len(path) > maxSocketPath {
		tmp, err := os.MkdirTemp("", "observatory-live-")
		if err != nil {
			return nil, "", nil, err
		}
		path, done = filepath.Join(tmp, "run"+sockExt), func() { _ = os.RemoveAll(tmp) }
	}
	_ = os.Remove(path) // a socket a process that died left
	ln, err = net.Listen("unix", path)
	if err != nil {
		done()
		return nil, "", nil, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		done()
		return nil, "", nil, err
	}
	return ln, unixScheme + path, done, nil
}
