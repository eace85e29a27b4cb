package liveproc

import "net"

// sockExt ends no file here: runs listen on loopback TCP.
const sockExt = ".sock"

// listen listens for the windows of a run on 127.0.0.1: Windows offers no peer process for
// it, so the discovery file's token alone admits a window (see docs/security.md).
func listen(string, string) (net.Listener, string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", nil, err
	}
	return ln, ln.Addr().String(), func() {}, nil
}
