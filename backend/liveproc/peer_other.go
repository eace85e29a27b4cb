//go:build !linux && !darwin

package liveproc

import "net"

// peerOf cannot tell who is at the other end of c here (Windows: a loopback connection):
// the run's token alone admits a window, and no answer is refused as the agent's own (see
// docs/security.md).
func peerOf(net.Conn) Peer { return Peer{} }

// lineage is never needed where no peer is known.
func lineage(int) ([]int, error) { return nil, nil }

// commandLine is unknown here.
func commandLine(int) string { return "" }

// BecomeSubreaper does nothing here.
func BecomeSubreaper() (undo func(), err error) { return func() {}, nil }
