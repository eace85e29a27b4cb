package app

import (
	"crypto/ed25519"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"observatory/backend/planner/model"
	"observatory/backend/planner/model/keyringtest"
	"observatory/backend/signing"
)

// TestSigningKeysLiveInTheOSKeyring makes a signing key with a real, private Secret Service
// running: its private half goes to the keyring (no key file is written, and the keys
// folder holds only public keys), it signs, and it is trusted from the start; untrusting it
// by fingerprint leaves an empty trust list, and a second key of the same name is refused.
func TestSigningKeysLiveInTheOSKeyring(t *testing.T) {
	keyringtest.Start(t)
	keys := SigningKeysIn(t.TempDir())
	key, keyringErr, err := keys.New("alice")
	if err != nil || keyringErr != nil || key.Private != InKeyring {
		t.Fatalf("New: %+v, keyring %v, %v", key, keyringErr, err)
	}
	seed, err := model.ReadKey(key.Entry)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := keys.Signer("alice")
	if err != nil || base64.StdEncoding.EncodeToString(signer.Key.Seed()) != seed {
		t.Fatalf("Signer: %v, or not the keyring's key", err)
	}
	if !ed25519.Verify(key.PublicKey, []byte("x"), ed25519.Sign(signer.Key, []byte("x"))) {
		t.Error("the key does not sign for its public half")
	}
	files, _ := filepath.Glob(filepath.Join(keys.dir, "*"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if strings.HasSuffix(f, ".key") || strings.Contains(string(data), seed) {
			t.Errorf("%s holds a private key", f)
		}
	}
	trust, err := keys.Trusted()
	if err != nil || len(trust) != 1 || !trust[0].Key.Equal(key.PublicKey) {
		t.Fatalf("trusted: %+v, %v", trust, err)
	}
	if _, _, err := keys.New("alice"); err == nil {
		t.Error("a second key called alice was made")
	}
	if gone, err := keys.Untrust(signing.Fingerprint(key.PublicKey)); err != nil || gone.Name != "alice" {
		t.Fatalf("Untrust: %+v, %v", gone, err)
	}
	if trust, _ := keys.Trusted(); len(trust) != 0 {
		t.Errorf("still trusted: %+v", trust)
	}
}
