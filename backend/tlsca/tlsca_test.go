package tlsca

import (
	"crypto/ecdsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"testing"
	"time"
)

// TestLeavesVerifyAgainstTheAuthorityAndAreCached checks that a leaf for a name and one for an
// address verify for their host against the authority alone, carry it in their chain, and are
// minted once per host.
func TestLeavesVerifyAgainstTheAuthorityAndAreCached(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	a, err := New(func() time.Time { return now }, 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := a.Certificate().PublicKey.(*ecdsa.PublicKey); !ok || !a.Certificate().IsCA {
		t.Fatalf("the authority is %T, CA %v", a.Certificate().PublicKey, a.Certificate().IsCA)
	}
	roots := x509.NewCertPool()
	roots.AddCert(a.Certificate())
	for _, host := range []string{"shop.example", "127.0.0.1", "::1"} {
		c, err := a.Leaf(host)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Certificate) != 2 || string(c.Certificate[1]) != string(a.Certificate().Raw) {
			t.Fatalf("%s: the chain does not carry the authority", host)
		}
		if _, err := c.Leaf.Verify(x509.VerifyOptions{DNSName: host, Roots: roots, CurrentTime: now.Add(time.Hour)}); err != nil {
			t.Fatalf("%s: %v", host, err)
		}
		if _, err := c.Leaf.Verify(x509.VerifyOptions{DNSName: "other.example", Roots: roots, CurrentTime: now}); err == nil {
			t.Fatalf("%s: the leaf verifies for another host", host)
		}
		if _, err := c.Leaf.Verify(x509.VerifyOptions{DNSName: host, Roots: roots, CurrentTime: now.Add(25 * time.Hour)}); err == nil {
			t.Fatalf("%s: the leaf outlives the authority", host)
		}
		again, _ := a.Leaf(host)
		if again != c {
			t.Fatalf("%s: minted twice", host)
		}
	}
	if c, _ := a.Leaf("[::1]"); c == nil || c.Leaf.IPAddresses[0].String() != "::1" {
		t.Fatal("a bracketed address is not the address's leaf")
	}
	if _, err := a.Leaf(""); err == nil {
		t.Fatal("a leaf for no host")
	}
}

// TestThePinIsTheAuthoritysKey checks SPKIPin against its definition: the base64 SHA-256 of
// the certificate's SubjectPublicKeyInfo, fresh for each authority.
func TestThePinIsTheAuthoritysKey(t *testing.T) {
	a, err := New(nil, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(nil, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(a.Certificate().RawSubjectPublicKeyInfo)
	if a.SPKIPin() != base64.StdEncoding.EncodeToString(sum[:]) || a.SPKIPin() == b.SPKIPin() {
		t.Fatalf("pins %s and %s", a.SPKIPin(), b.SPKIPin())
	}
}
