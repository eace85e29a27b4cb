package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"regexp"
)

// ContentName is the name a frame's file (a screenshot, a DOM snapshot) is stored under: the
// first 8 bytes of its content's SHA-256 in hex, then ext. A page that did not change is
// stored once, and a file can be checked against its name.
func ContentName(content []byte, ext string) string {
	h := ContentHash()
	h.Write(content)
	return HashedName(h, ext)
}

// ContentHash is the hash ContentName names a file by, to be fed the file as it streams.
func ContentHash() hash.Hash { return sha256.New() }

// HashedName is the name ContentName gives the content h was fed.
func HashedName(h hash.Hash, ext string) string { return hex.EncodeToString(h.Sum(nil)[:8]) + ext }

// contentNamed matches a name ContentName gives: 16 hex digits and an extension.
var contentNamed = regexp.MustCompile(`^([0-9a-f]{16})(\..+)$`)

// ContentNamed reports whether name has the shape ContentName gives, and its extension.
func ContentNamed(name string) (string, bool) {
	m := contentNamed.FindStringSubmatch(name)
	if m == nil {
		return "", false
	}
	return m[2], true
}
