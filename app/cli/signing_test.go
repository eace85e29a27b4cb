package cli

import (
	"archive/zip"
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"observatory/backend/bundle/bundletest"
	"observatory/backend/signing"
	"observatory/backend/store"
)

// noKeyring points the OS keyring at a bus that is not there, so keys go to the data folder's
// 0600 files (the keyring itself is tested in app, against a private Secret Service).
func noKeyring(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(t.TempDir(), "no-bus"))
}

// mustRun runs the command line and fails t unless it exits 0; it returns stdout and stderr.
func mustRun(t *testing.T, args ...string) (string, string) {
	t.Helper()
	code, out, errOut := run(t, args...)
	if code != 0 {
		t.Fatalf("%s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out, errOut
}

// privateSeed is the private key that keys new kept in a file of dataDir's keys folder.
func privateSeed(t *testing.T, dataDir string) []byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dataDir, "keys", "*.key"))
	if len(files) != 1 {
		t.Fatalf("want one private key file in %s, have %v", dataDir, files)
	}
	info, err := os.Stat(files[0])
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the private key file: %v, mode %v, want 0600", err, info.Mode())
	}
	data, _ := os.ReadFile(files[0])
	seed, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(data)))
	if err != nil || len(seed) != ed25519.SeedSize {
		t.Fatalf("the private key file holds %q", data)
	}
	return seed
}

// holdsSecret reports whether data holds the seed, or the private key made from it, in any
// encoding a leak would take: raw, base64 or hex.
func holdsSecret(data, seed []byte) bool {
	priv := ed25519.NewKeyFromSeed(seed)
	for _, s := range [][]byte{seed, priv, []byte(base64.StdEncoding.EncodeToString(seed)), []byte(base64.StdEncoding.EncodeToString(priv)),
		[]byte(base64.RawURLEncoding.EncodeToString(seed)), []byte(strings.ToLower(string(hexOf(seed))))} {
		if bytes.Contains(data, s) {
			return true
		}
	}
	return false
}

func hexOf(b []byte) []byte {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return out
}

// TestASignedBookingBundleVerifiesOnlyAsSigned runs the booking lab's saves-normally attempt
// in real Chromium with "sign every export" set, so its bundle (run file and screenshots) is
// signed by alice. verify and import say "signed by alice (fingerprint), verified" with
// alice's trust list and "a key you do not trust" (with how to trust it) with bob's;
// --require-signature imports it for alice and refuses it for bob. One byte changed in the
// run file, or in one screenshot, makes verify fail and import say "signature does not
// match" (and --require-signature refuse it); the history keeps what import found.
// OpenSSL verifies the bundle's signature with the key export-public prints. The private key
// is in no bundle, signature, output, store or log.
func TestASignedBookingBundleVerifiesOnlyAsSigned(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	noKeyring(t)
	dir := t.TempDir()
	alice, bob := filepath.Join(dir, "alice"), filepath.Join(dir, "bob")
	var said strings.Builder // everything the commands printed
	do := func(args ...string) (string, string) {
		out, errOut := mustRun(t, args...)
		said.WriteString(out + errOut)
		return out, errOut
	}
	out, errOut := do("keys", "new", "--name", "alice", "--data-dir", alice)
	if !strings.Contains(out, "made key alice") || !strings.Contains(errOut, "no OS keyring") {
		t.Fatalf("keys new: %s%s", out, errOut)
	}
	do("keys", "new", "--name", "bob", "--data-dir", bob)
	do("keys", "sign-exports", "alice", "--data-dir", alice)
	signed := filepath.Join(dir, "booking.zip")
	code, _, errOut := run(t, "run", "--lab", "booking", "--attempt", "saves-normally", "--no-video", "--export", signed, "--data-dir", alice)
	if !ranThrough(code, errOut) || !strings.Contains(errOut, "signed by alice") {
		t.Fatalf("run --export: exit %d: %s", code, errOut)
	}
	said.WriteString(errOut)
	pemOut, _ := do("keys", "export-public", "alice", "--data-dir", alice)
	pub, err := signing.ParsePublic([]byte(pemOut))
	if err != nil {
		t.Fatal(err)
	}
	fp := signing.Fingerprint(pub)

	_, errOut = do("verify", signed, "--data-dir", alice)
	if !strings.Contains(errOut, "signed by alice ("+fp+"), verified") {
		t.Errorf("verify with alice's trust list:\n%s", errOut)
	}
	_, errOut = do("verify", signed, "--data-dir", bob)
	if !strings.Contains(errOut, "signed by a key you do not trust ("+fp) || !strings.Contains(errOut, "observatory keys trust FILE") {
		t.Errorf("verify with bob's trust list:\n%s", errOut)
	}
	_, errOut = do("import", "--require-signature", signed, "--data-dir", alice)
	if !strings.Contains(errOut, "signature: signed by alice ("+fp+"), verified") {
		t.Errorf("import for alice:\n%s", errOut)
	}
	if code, _, errOut := run(t, "import", "--require-signature", signed, "--data-dir", bob); code == 0 || !strings.Contains(errOut, "a key you do not trust") {
		t.Errorf("import --require-signature for bob: exit %d: %s", code, errOut)
	}
	_, errOut = do("import", signed, "--data-dir", bob)
	if !strings.Contains(errOut, "signature: signed by a key you do not trust ("+fp) || !strings.Contains(errOut, "observatory keys trust FILE") {
		t.Errorf("import for bob:\n%s", errOut)
	}

	shot := regexp.MustCompile(`^media/.*\.jpg$`).MatchString
	tampered := map[string]string{}
	tampered["run.json"] = filepath.Join(dir, "run-byte.zip")
	bundletest.Rezip(t, signed, tampered["run.json"], func(n string) bool { return n == "run.json" }, bundletest.Relive)
	tampered["screenshot"] = filepath.Join(dir, "shot-byte.zip")
	bundletest.Rezip(t, signed, tampered["screenshot"], shot, bundletest.FlipMiddle)
	for what, path := range tampered {
		code, _, errOut := run(t, "verify", path, "--data-dir", alice)
		if code == 0 || !strings.Contains(errOut, "signature does not match:") || !strings.Contains(errOut, "changed since it was signed") {
			t.Errorf("verify, one byte of the %s changed: exit %d\n%s", what, code, errOut)
		}
		if code, _, errOut := run(t, "import", "--require-signature", path, "--data-dir", alice); code == 0 || !strings.Contains(errOut, "signature does not match") {
			t.Errorf("import --require-signature, one byte of the %s changed: exit %d\n%s", what, code, errOut)
		}
		if what == "screenshot" {
			// A media file that no longer matches its name is refused whole, the signature's
			// finding first.
			if code, _, errOut := run(t, "import", path, "--data-dir", alice); code == 0 || !strings.Contains(errOut, "signature does not match") ||
				!strings.Contains(errOut, "does not match its name") {
				t.Errorf("import, one byte of the %s changed: exit %d\n%s", what, code, errOut)
			}
			continue
		}
		_, errOut = do("import", path, "--data-dir", alice)
		if !strings.Contains(errOut, "signature: signature does not match") {
			t.Errorf("import, one byte of the %s changed:\n%s", what, errOut)
		}
	}

	st, err := store.Open(alice)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := st.List()
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	var statuses []string
	for _, r := range runs {
		if r.Signature != nil {
			statuses = append(statuses, r.Signature.Status)
		}
	}
	if strings.Join(statuses, " ") != "mismatch verified" {
		t.Errorf("the history's signatures, newest first: %v, want the changed run file's mismatch and one verified", statuses)
	}

	// OpenSSL checks the real bundle's signature, over the PAE of its payload.
	if openssl, err := exec.LookPath("openssl"); err == nil {
		zr, err := zip.OpenReader(signed)
		if err != nil {
			t.Fatal(err)
		}
		var env signing.Envelope
		for _, f := range zr.File {
			if f.Name == "signature.json" {
				rc, _ := f.Open()
				json.NewDecoder(rc).Decode(&env)
				rc.Close()
			}
		}
		zr.Close()
		body, _ := base64.StdEncoding.DecodeString(env.Payload)
		sig, _ := base64.StdEncoding.DecodeString(env.Signatures[0].Sig)
		os.WriteFile(filepath.Join(dir, "pub.pem"), []byte(pemOut), 0o600)
		os.WriteFile(filepath.Join(dir, "pae.bin"), signing.PAE(env.PayloadType, body), 0o600)
		os.WriteFile(filepath.Join(dir, "sig.bin"), sig, 0o600)
		out, err := exec.Command(openssl, "pkeyutl", "-verify", "-pubin", "-inkey", filepath.Join(dir, "pub.pem"), "-rawin",
			"-in", filepath.Join(dir, "pae.bin"), "-sigfile", filepath.Join(dir, "sig.bin")).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "Signature Verified Successfully") {
			t.Errorf("openssl refused the bundle's signature: %v\n%s", err, out)
		}
		if !strings.Contains(string(body), `"name":"media/`) {
			t.Errorf("the statement signs no media:\n%s", body)
		}
	}

	seed := privateSeed(t, alice)
	if holdsSecret([]byte(said.String()), seed) {
		t.Error("a command printed the private key")
	}
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || filepath.Dir(path) == filepath.Join(alice, "keys") {
			return nil
		}
		data, _ := os.ReadFile(path)
		if holdsSecret(data, seed) {
			t.Errorf("%s holds the private key", path)
		}
		return nil
	})
}
