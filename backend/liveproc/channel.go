package liveproc

import (
	"context"
	"net"
	"net/http"
	"path/filepath"
	"strings"
)

// unixScheme begins the address of a run offered on a Unix socket: "unix:/path/to/run.sock".
const unixScheme = "unix:"

// unixHost is the Host a window's requests to a Unix socket carry (no name to rebind).
const unixHost = "live"

// socketPath is the Unix socket addr names; ok is false for a loopback TCP address.
func socketPath(addr string) (path string, ok bool) {
	path, ok = strings.CutPrefix(addr, unixScheme)
	return path, ok
}

// host is the Host header the run at addr answers to.
func host(addr string) string {
	if _, ok := socketPath(addr); ok {
		return unixHost
	}
	return addr
}

// validAddr says whether addr may be followed: an absolute Unix socket path, or an address
// on this machine's loopback (a file planted in the folder must not send a window elsewhere).
func validAddr(addr string) bool {
	if path, ok := socketPath(addr); ok {
		return filepath.IsAbs(path)
	}
	h, _, err := net.SplitHostPort(addr)
	ip := net.ParseIP(h)
	return err == nil && ip != nil && ip.IsLoopback()
}

// clientFor is an HTTP client that reaches the run at addr, and the base of its URLs.
func clientFor(addr string) (*http.Client, string) {
	path, ok := socketPath(addr)
	if !ok {
		return &http.Client{}, "http://" + addr
	}
	var d net.Dialer
	tr := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return d.DialContext(ctx, "unix", path)
	}}
	return &http.Client{Transport: tr}, "http://" + unixHost
}
