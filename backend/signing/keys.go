package signing

import (
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
)

// PublicKey is a key that checks signatures, with the name its holder is known by here.
type PublicKey struct {
	Name string            `json:"name"`
	Key  ed25519.PublicKey `json:"public_key"`
}

// Signer is a private key and the name its signatures carry. Its key never leaves the
// process: only signatures made with it do.
type Signer struct {
	Name string
	Key  ed25519.PrivateKey
}

// Public is the signer's public half.
func (s Signer) Public() PublicKey {
	return PublicKey{Name: s.Name, Key: s.Key.Public().(ed25519.PublicKey)}
}

// KeyID is the DSSE key id of pub: the hex SHA-256 of its 32 raw bytes. It only narrows
// which key to try; trust is decided by the key itself.
func KeyID(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return hex.EncodeToString(sum[:])
}

// Fingerprint is how a person names pub: the first 16 hex digits of its KeyID, in groups
// of four ("3f9a 1c20 ab77 0e12").
func Fingerprint(pub ed25519.PublicKey) string {
	id := KeyID(pub)
	return id[0:4] + " " + id[4:8] + " " + id[8:12] + " " + id[12:16]
}

// EncodePEM writes pub as a PEM "PUBLIC KEY" (SubjectPublicKeyInfo), which OpenSSL and
// most tools read.
func EncodePEM(pub ed25519.PublicKey) []byte {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		panic(err) // an ed25519.PublicKey always marshals
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}

// ParsePublic reads an Ed25519 public key given as a PEM "PUBLIC KEY" (what keys
// export-public writes), or as base64 of its 32 raw bytes or of its SubjectPublicKeyInfo.
func ParsePublic(text []byte) (ed25519.PublicKey, error) {
	der := []byte(nil)
	if block, _ := pem.Decode(text); block != nil {
		if block.Type != "PUBLIC KEY" {
			return nil, fmt.Errorf("a PEM %q block, want PUBLIC KEY", block.Type)
		}
		der = block.Bytes
	} else {
		s := strings.TrimSpace(string(text))
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, errors.New("neither a PEM public key nor base64: give the file keys export-public wrote, or its key")
		}
		if len(b) == ed25519.PublicKeySize {
			return ed25519.PublicKey(b), nil
		}
		der = b
	}
	k, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, fmt.Errorf("not a public key: %v", err)
	}
	pub, ok := k.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("a %T, want an Ed25519 key", k)
	}
	return pub, nil
}
