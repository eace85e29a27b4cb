package cli

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"observatory/backend/bundle/bundletest"
	"observatory/backend/signing"
)

// TestFourSignedShardsMergeIntoASignedRun runs the booking lab as four shards in real
// Chromium, as four CI machines would: two sign with key ci-a, two with ci-b. The merging
// machine trusts ci-a only; merge --sign lists each shard's run file digest and signer, and
// its signature's statement carries them; the merged file verifies as signed by its key. A
// shard changed after it was signed is refused.
func TestFourSignedShardsMergeIntoASignedRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	noKeyring(t)
	dir := t.TempDir()
	ciA, ciB, merger := filepath.Join(dir, "ci-a"), filepath.Join(dir, "ci-b"), filepath.Join(dir, "merger")
	for _, k := range []struct{ dir, name string }{{ciA, "ci-a"}, {ciB, "ci-b"}, {merger, "merger"}} {
		mustRun(t, "keys", "new", "--name", k.name, "--data-dir", k.dir)
		mustRun(t, "keys", "sign-exports", k.name, "--data-dir", k.dir)
	}
	pemA, _ := mustRun(t, "keys", "export-public", "--data-dir", ciA)
	os.WriteFile(filepath.Join(dir, "ci-a.pem"), []byte(pemA), 0o600)
	mustRun(t, "keys", "trust", filepath.Join(dir, "ci-a.pem"), "--data-dir", merger)
	attempts := []string{"--attempt", "saves-normally", "--attempt", "wrong-room", "--attempt", "save-refused", "--attempt", "renamed-button-exact"}
	var shards []string
	for i, k := range []string{"1", "2", "3", "4"} {
		machine := []string{ciA, ciA, ciB, ciB}[i]
		path := filepath.Join(dir, "shard"+k+".json")
		args := append([]string{"run", "--shard", k + "/4", "--no-video", "--no-screenshots", "--json", "--export", path, "--data-dir", machine}, attempts...)
		if code, _, errOut := run(t, args...); !ranThrough(code, errOut) || !strings.Contains(errOut, "signed by ci-") {
			t.Fatalf("shard %s/4: exit %d: %s", k, code, errOut)
		}
		shards = append(shards, path)
	}
	merged := filepath.Join(dir, "run.json")
	// The merged run's exit status is its verdict (some booking attempts never complete).
	code, _, errOut := run(t, append(append([]string{"merge"}, shards...), "-o", merged, "--sign", "--data-dir", merger)...)
	if !ranThrough(code, errOut) {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	fpA := signing.Fingerprint(mustPublic(t, pemA))
	for i, s := range shards {
		data, _ := os.ReadFile(s)
		by := "signed by ci-a (" + fpA + "), verified"
		if i >= 2 {
			by = "signed by a key you do not trust ("
		}
		if line := "shard " + filepath.Base(s) + " sha256 " + signing.Digest(data) + ": " + by; !strings.Contains(errOut, line) {
			t.Errorf("merge does not list %q:\n%s", line, errOut)
		}
	}
	_, errOut = mustRun(t, "verify", merged, "--data-dir", merger)
	if !strings.Contains(errOut, "signed by merger (") || !strings.Contains(errOut, "), verified") {
		t.Errorf("verify the merged run:\n%s", errOut)
	}
	var env signing.Envelope
	sigData, _ := os.ReadFile(merged + ".sig.json")
	if err := json.Unmarshal(sigData, &env); err != nil {
		t.Fatal(err)
	}
	body, _ := base64.StdEncoding.DecodeString(env.Payload)
	var st signing.Statement
	if err := json.Unmarshal(body, &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Predicate.Shards) != 4 || len(st.Predicate.Attempts) != 4 {
		t.Fatalf("the merged statement: %d shards, %d attempts:\n%s", len(st.Predicate.Shards), len(st.Predicate.Attempts), body)
	}
	for i, s := range st.Predicate.Shards {
		data, _ := os.ReadFile(shards[i])
		want := map[bool]string{true: "ci-a", false: "ci-b"}[i < 2]
		if s.SHA256 != signing.Digest(data) || s.Signer != want || s.Status != map[bool]signing.Status{true: signing.Verified, false: signing.Untrusted}[i < 2] {
			t.Errorf("shard %d in the statement: %+v, want %s's digest signed by %s", i+1, s, filepath.Base(shards[i]), want)
		}
	}
	data, _ := os.ReadFile(shards[3])
	os.WriteFile(shards[3], bundletest.Relive(data), 0o644)
	if code, _, errOut := run(t, append(append([]string{"merge"}, shards...), "-o", merged, "--data-dir", merger)...); code == 0 || !strings.Contains(errOut, "shard4.json: signature does not match: run.json changed since it was signed") {
		t.Errorf("merging a changed shard: exit %d: %s", code, errOut)
	}
}

func mustPublic(t *testing.T, text string) []byte {
	t.Helper()
	pub, err := signing.ParsePublic([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return pub
}
