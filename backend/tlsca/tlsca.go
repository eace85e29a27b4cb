// Package tlsca is an ephemeral certificate authority, kept in memory only: a browser told to
// trust it (see SPKIPin) accepts the certificates it mints for any host, so a proxy between the
// browser and an https origin can read what the browser sends (as mitmproxy and Playwright's
// own tooling do). Nothing of it is ever written to disk; it dies with the process that made it.
package tlsca

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"fmt"
	"math/big"
	"net"
	"strings"
	"sync"
	"time"
)

// skew is how far before its making a certificate is valid, so that a clock a little behind
// this one's still accepts it.
const skew = time.Hour

// maxLeaves bounds the leaf certificates an authority keeps; past it, the oldest go.
const maxLeaves = 256

// Authority is an ephemeral certificate authority (ECDSA P-256) and the leaf certificates it
// minted, one per host, cached. Its methods are safe for concurrent use.
type Authority struct {
	cert     *x509.Certificate
	key      *ecdsa.PrivateKey
	notAfter time.Time
	now      func() time.Time

	mu     sync.Mutex
	leaves map[string]*tls.Certificate
	order  []string // the hosts of leaves, oldest first
}

// New makes an authority valid from now until validFor has passed, by the clock now (nil is
// time.Now). Its key is fresh and never leaves memory.
func New(now func() time.Time, validFor time.Duration) (*Authority, error) {
	if now == nil {
		now = time.Now
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("make the certificate authority's key: %w", err)
	}
	start := now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "Observatory ephemeral CA " + start.UTC().Format(time.RFC3339), Organization: []string{"Observatory"}},
		NotBefore:             start.Add(-skew),
		NotAfter:              start.Add(validFor),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, fmt.Errorf("sign the certificate authority: %w", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &Authority{cert: cert, key: key, notAfter: tmpl.NotAfter, now: now, leaves: map[string]*tls.Certificate{}}, nil
}

// Certificate is the authority's own certificate, which a client may add to its roots.
func (a *Authority) Certificate() *x509.Certificate { return a.cert }

// SPKIPin is the base64 SHA-256 of the authority's SubjectPublicKeyInfo, as Chromium's
// --ignore-certificate-errors-spki-list takes it: a browser launched with it accepts a chain
// that carries this certificate (every leaf's chain does, see Leaf).
func (a *Authority) SPKIPin() string {
	sum := sha256.Sum256(a.cert.RawSubjectPublicKeyInfo)
	return base64.StdEncoding.EncodeToString(sum[:])
}

// Leaf is the certificate for host (a name or an IP address, without a port), minted on first
// use and cached; its chain carries the authority's certificate after it.
func (a *Authority) Leaf(host string) (*tls.Certificate, error) {
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if host == "" {
		return nil, fmt.Errorf("no host to make a certificate for")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if c, ok := a.leaves[host]; ok {
		return c, nil
	}
	c, err := a.mint(host)
	if err != nil {
		return nil, err
	}
	if len(a.order) == maxLeaves {
		delete(a.leaves, a.order[0])
		a.order = a.order[1:]
	}
	a.leaves[host] = c
	a.order = append(a.order, host)
	return c, nil
}

// mint signs a fresh leaf for host, valid as long as the authority.
func (a *Authority) mint(host string) (*tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("make a key for %s: %w", host, err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: host},
		NotBefore:    a.now().Add(-skew),
		NotAfter:     a.notAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else {
		tmpl.DNSNames = []string{host}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, a.cert, &key.PublicKey, a.key)
	if err != nil {
		return nil, fmt.Errorf("sign the certificate of %s: %w", host, err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &tls.Certificate{Certificate: [][]byte{der, a.cert.Raw}, PrivateKey: key, Leaf: leaf}, nil
}

// serial is a random 128-bit serial number, as RFC 5280 asks (positive, unpredictable).
func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return n.Add(n, big.NewInt(1))
}
