package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// run executes the command line with args and returns its exit code, stdout and stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Execute(context.Background(), Env{Stdout: &out, Stderr: &errOut, Assets: fstest.MapFS{}}, args)
	return code, out.String(), errOut.String()
}

func TestCommandsSayWhatIsWrong(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join("..", "..", "backend", "runfile", "testdata", "bad")
	tests := []struct {
		name string
		args []string
		code int
		out  string // stdout must contain it (empty: stdout must be empty)
		err  string // stderr must contain it
	}{
		{"an empty history", []string{"runs", "--data-dir", dir}, 0, "no runs yet", ""},
		{"an empty history as JSON", []string{"runs", "--json", "--data-dir", dir}, 0, "[]", ""},
		{"an unknown run", []string{"show", "nope", "--data-dir", dir}, 1, "", "nope"},
		{"export of an unknown run", []string{"export", "nope", "-o", filepath.Join(dir, "x.json"), "--data-dir", dir}, 1, "", "nope"},
		{"an unknown lab", []string{"run", "--lab", "nope", "--data-dir", dir}, 1, "", `no lab called "nope"`},
		{"an unknown attempt, with --json", []string{"run", "--attempt", "nope", "--json", "--data-dir", dir}, 1, "", `no attempt "nope"`},
		{"a bad policy", []string{"run", "--wait", "sometimes", "--data-dir", dir}, 1, "", `wait policy "sometimes"`},
		{"serve on every interface", []string{"serve", "--addr", "0.0.0.0:0", "--data-dir", dir}, 1, "", "loopback only"},
		{"verify a file that is not JSON", []string{"verify", filepath.Join(bad, "not-json.json")}, 1, "", "not-json"},
		{"verify an illegal event order", []string{"verify", filepath.Join(bad, "unknown-version.json")}, 1, "", "unknown schema version"},
		{"import stores nothing when refused", []string{"import", filepath.Join(bad, "too-many-events.json"), "--data-dir", dir}, 1, "", "events"},
	}
	for _, tt := range tests {
		code, out, errOut := run(t, tt.args...)
		if code != tt.code || (tt.out == "" && out != "") || !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.err) {
			t.Errorf("%s: exit %d\nstdout %q\nstderr %q\nwant exit %d, stdout with %q, stderr with %q", tt.name, code, out, errOut, tt.code, tt.out, tt.err)
		}
	}
	if _, out, _ := run(t, "runs", "--json", "--data-dir", dir); strings.TrimSpace(out) != "[]" {
		t.Errorf("a refused import was stored: %s", out)
	}
}

// TestRunJSONPrintsOnlyJSON runs one attempt in real Chromium and checks the --json contract:
// standard output is a JSON array of one object per attempt and nothing else; progress goes
// to standard error; the run file it exports verifies.
func TestRunJSONPrintsOnlyJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a browser")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "run.json")
	code, out, errOut := run(t, "run", "--attempt", "renamed-button-exact", "--json", "--no-video", "--no-screenshots",
		"--export", file, "--data-dir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("stdout is not only JSON (%v):\n%s", err, out)
	}
	want := map[string]any{"attempt": "renamed-button-exact", "saved_as_asked": false, "notice": false,
		"parallax": false, "gate": false, "terminal": "failed"}
	if len(rows) != 1 {
		t.Fatalf("%d rows, want 1", len(rows))
	}
	for k, v := range want {
		if rows[0][k] != v {
			t.Errorf("%s = %v, want %v", k, rows[0][k], v)
		}
	}
	if !strings.Contains(errOut, "[1/1] renamed-button-exact") {
		t.Errorf("no progress on stderr: %q", errOut)
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := run(t, "verify", file); code != 0 || !strings.Contains(out, "renamed-button-exact") {
		t.Errorf("verify of a genuine run: exit %d\n%s\n%s", code, out, errOut)
	}
}

func TestVersion(t *testing.T) {
	code, out, errOut := run(t, "version")
	if code != 0 || !strings.HasPrefix(out, "observatory ") || !strings.Contains(out, "\ncommit  ") || !strings.Contains(out, "\nbuilt   ") {
		t.Errorf("version: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = run(t, "version", "--json")
	var info map[string]string
	if err := json.Unmarshal([]byte(out), &info); code != 0 || err != nil || info["version"] == "" || info["commit"] == "" || info["date"] == "" {
		t.Errorf("version --json: exit %d, stdout %q (%v), stderr %q", code, out, err, errOut)
	}
}
