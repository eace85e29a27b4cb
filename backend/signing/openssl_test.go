package signing

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenSSLVerifiesOurSignature: an independent implementation, Debian's OpenSSL
// (pkeyutl -verify -rawin, Ed25519), accepts an Observatory signature over the PAE of its
// envelope's payload with the key keys export-public writes, and refuses it over one changed
// byte.
func TestOpenSSLVerifiesOurSignature(t *testing.T) {
	openssl, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("no openssl on PATH (Debian: apt-get install openssl)")
	}
	signer := fixedSigner("ci", 9)
	env, err := Sign(signer, presented(runBytes, shotBytes), theSummary, nil, "1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	var e Envelope
	if err := json.Unmarshal(env, &e); err != nil {
		t.Fatal(err)
	}
	body, _ := base64.StdEncoding.DecodeString(e.Payload)
	sig, _ := base64.StdEncoding.DecodeString(e.Signatures[0].Sig)
	dir := t.TempDir()
	pae := PAE(e.PayloadType, body)
	files := map[string][]byte{"pub.pem": EncodePEM(signer.Public().Key), "pae.bin": pae, "sig.bin": sig,
		"bad.bin": append(append([]byte(nil), pae[:len(pae)-1]...), pae[len(pae)-1]^1)}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	verify := func(in string) (string, error) {
		out, err := exec.Command(openssl, "pkeyutl", "-verify", "-pubin", "-inkey", filepath.Join(dir, "pub.pem"), "-rawin",
			"-in", filepath.Join(dir, in), "-sigfile", filepath.Join(dir, "sig.bin")).CombinedOutput()
		return string(out), err
	}
	if out, err := verify("pae.bin"); err != nil || !strings.Contains(out, "Signature Verified Successfully") {
		t.Fatalf("openssl refused our signature: %v\n%s", err, out)
	}
	if out, err := verify("bad.bin"); err == nil {
		t.Errorf("openssl verified a changed byte:\n%s", out)
	}
}
