package bundle

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"

	"observatory/backend/signing"
)

// Signed is what a bundle presents to a signature check: its run file, its signature (nil
// when it has none) and every entry it holds but the signature, each as a subject with its
// SHA-256.
type Signed struct {
	RunFile   []byte
	Signature []byte
	Entries   []signing.Subject
}

// SignedOf checks the bundle in r (size bytes) entry by entry, as Import does before it
// writes anything, and reads and digests every entry, each read through the same limits as
// Import's (never past its header's size, nor past MaxRatio). Its refusals are Import's.
func SignedOf(ctx context.Context, r io.ReaderAt, size int64) (Signed, error) {
	c, err := scan(ctx, r, size)
	if err != nil {
		return Signed{}, err
	}
	out := Signed{RunFile: c.runFile, Entries: []signing.Subject{signing.SubjectOf(RunFile, c.runFile)}}
	if c.signature != nil {
		var buf bytes.Buffer
		if err := copyEntry(newRatioWriter(&buf, c.signature.Name, c.meter), c.signature); err != nil {
			return Signed{}, err
		}
		out.Signature = buf.Bytes()
	}
	for _, f := range c.media {
		sum := sha256.New()
		if err := copyEntry(newRatioWriter(sum, f.Name, c.meter), f); err != nil {
			return Signed{}, err
		}
		out.Entries = append(out.Entries, signing.Subject{Name: f.Name, Digest: map[string]string{"sha256": hex.EncodeToString(sum.Sum(nil))}})
	}
	return out, nil
}
