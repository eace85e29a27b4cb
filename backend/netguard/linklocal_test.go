package netguard

import (
	"net"
	"strings"
	"testing"
)

// TestLinkLocalHosts names hosts as task files write them: link-local and metadata ones, and
// ordinary ones that merely look alike.
func TestLinkLocalHosts(t *testing.T) {
	for host, want := range map[string]bool{"metadata.google.internal": true, "METADATA.": true, "metadata.example.org": true, "169.254.1.1": true,
		"[fe80::1%25eth0]": true, "fd00:ec2::254": true, "example.com": false, "127.0.0.1": false, "10.0.0.1": false, "metadataservice.com": false} {
		if got := LinkLocal(host) != ""; got != want {
			t.Errorf("LinkLocal(%q) = %v, want %v", host, got, want)
		}
	}
}

// TestControlRefusesLinkLocalAddresses dials link-local and metadata addresses through a
// dialer with Control: each is refused before a connection is made; loopback is not.
func TestControlRefusesLinkLocalAddresses(t *testing.T) {
	d := &net.Dialer{Control: Control}
	for _, addr := range []string{"169.254.169.254:80", "[fe80::1]:80", "[fd00:ec2::254]:80", "[::ffff:169.254.169.254]:80"} {
		if _, err := d.Dial("tcp", addr); err == nil || !strings.Contains(err.Error(), "where cloud machines serve their credentials") {
			t.Errorf("dial %s: %v; want it refused", addr, err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := d.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatalf("loopback refused: %v", err)
	}
	c.Close()
}
