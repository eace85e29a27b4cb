package oracle

import (
	"net/netip"
	"slices"
	"strings"
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
