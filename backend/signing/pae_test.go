package signing

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/asn1"
	"encoding/base64"
	"math/big"
	"testing"
)

// The DSSE specification's published test vector (secure-systems-lab/dsse, protocol.md,
// "Test Vectors"): the payload, its type, the PAE, the ECDSA P-256 key and the envelope's
// signature, the raw concatenation of r and s, deterministic (RFC 6979) over SHA-256.
const (
	vectorType = "http://example.com/HelloWorld"
	vectorBody = "hello world"
	vectorPAE  = "DSSEv1 29 http://example.com/HelloWorld 11 hello world"
	vectorX    = "46950820868899156662930047687818585632848591499744589407958293238635476079160"
	vectorY    = "5640078356564379163099075877009565129882514886557779369047442380624545832820"
	vectorD    = "97358161215184420915383655311931858321456579547487070936769975997791359926199"
	vectorSig  = "A3JqsQGtVsJ2O2xqrI5IcnXip5GToJ3F+FnZ+O88SjtR6rDAajabZKciJTfUiHqJPcIAriEGAHTVeCUjW2JIZA=="
)

// TestPAEReproducesTheSpecVector: PAE gives the specification's bytes; the published
// signature verifies over them with the published key; and signing them with that key the
// way the reference implementation does (deterministic ECDSA) gives the published signature
// byte for byte, so not one byte of the encoding differs.
func TestPAEReproducesTheSpecVector(t *testing.T) {
	pae := PAE(vectorType, []byte(vectorBody))
	if string(pae) != vectorPAE {
		t.Fatalf("PAE = %q, want %q", pae, vectorPAE)
	}
	num := func(s string) *big.Int { n, _ := new(big.Int).SetString(s, 10); return n }
	priv := &ecdsa.PrivateKey{PublicKey: ecdsa.PublicKey{Curve: elliptic.P256(), X: num(vectorX), Y: num(vectorY)}, D: num(vectorD)}
	want, err := base64.StdEncoding.DecodeString(vectorSig)
	if err != nil || len(want) != 64 {
		t.Fatalf("the vector's signature: %v (%d bytes)", err, len(want))
	}
	digest := sha256.Sum256(pae)
	r, s := new(big.Int).SetBytes(want[:32]), new(big.Int).SetBytes(want[32:])
	if !ecdsa.Verify(&priv.PublicKey, digest[:], r, s) {
		t.Fatal("the published signature does not verify over our PAE")
	}
	der, err := priv.Sign(nil, digest[:], crypto.SHA256) // nil: deterministic, RFC 6979
	if err != nil {
		t.Fatal(err)
	}
	var rs struct{ R, S *big.Int }
	if _, err := asn1.Unmarshal(der, &rs); err != nil {
		t.Fatalf("reading our signature %x: %v", der, err)
	}
	got := append(rs.R.FillBytes(make([]byte, 32)), rs.S.FillBytes(make([]byte, 32))...)
	if b64 := base64.StdEncoding.EncodeToString(got); b64 != vectorSig {
		t.Errorf("our deterministic signature %s, want the vector's %s", b64, vectorSig)
	}
	if p := base64.StdEncoding.EncodeToString([]byte(vectorBody)); p != "aGVsbG8gd29ybGQ=" {
		t.Errorf("payload %s, want the envelope's aGVsbG8gd29ybGQ=", p)
	}
}
