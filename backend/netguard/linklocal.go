package netguard

import (
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strings"
	"syscall"
)

// metadataHosts are names cloud providers serve instance metadata, and credentials, on.
var metadataHosts = []string{"metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal"}

// ec2Metadata is EC2's IPv6 metadata address, outside fe80::/10.
var ec2Metadata = netip.MustParseAddr("fd00:ec2::254")

// LinkLocal says why host (a name or an address, IPv6 in brackets or not) is a link-local
// or cloud-metadata host, or "" when it is not: 169.254.0.0/16, fe80::/10, fd00:ec2::254,
// and metadata names (metadata, metadata.*, metadata.google.internal, instance-data…).
// Such hosts serve a cloud machine's credentials to whoever asks from it.
func LinkLocal(host string) string {
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if a, err := netip.ParseAddr(host); err == nil {
		return linkLocalAddr(a)
	}
	if slices.Contains(metadataHosts, host) || strings.HasPrefix(host, "metadata.") {
		return "a cloud metadata host"
	}
	return ""
}

// linkLocalAddr says why a is link-local or a metadata address, or "".
func linkLocalAddr(a netip.Addr) string {
	a = a.WithZone("").Unmap()
	switch {
	case a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast():
		return "a link-local address"
	case a == ec2Metadata:
		return "EC2's metadata address"
	}
	return ""
}

// Control is a net.Dialer's Control that refuses to connect to a link-local or metadata
// address: it runs after any name is resolved and before the connection is made, so no
// name, redirect or proxy request can lead there and no packet leaves.
func Control(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if why := linkLocalAddr(a); why != "" {
			return fmt.Errorf("%s is %s, where cloud machines serve their credentials; the task was not allowed to reach it", host, why)
		}
	}
	return nil
}
