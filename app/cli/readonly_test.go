package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/store"
	"observatory/backend/store/storetest"
)

func TestReadingCommandsWorkInAReadOnlyDataFolder(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := agent.Run{ID: "0123456789abcdef", Task: "booking", Created: time.Now().UTC(), Status: agent.RunImported, Source: "x.json",
		Attempts: []agent.Attempt{{Slug: "saves-normally", Terminal: agent.Failed, Reason: "it failed", Config: agent.DefaultConfig()}}}
	if err := st.SaveImported(r); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "run.json")
	storetest.ReadOnly(t, dir)

	tests := []struct {
		args []string
		out  string
	}{
		{[]string{"runs"}, "0123456789abcdef"},
		{[]string{"runs", "--json"}, `"id": "0123456789abcdef"`},
		{[]string{"show", "0123"}, "saves-normally: failed: it failed"},
		{[]string{"export", "0123", "-o", out}, ""},
	}
	for _, tt := range tests {
		code, stdout, stderr := run(t, append(tt.args, "--data-dir", dir)...)
		if code != 0 || !strings.Contains(stdout, tt.out) || !strings.Contains(stderr, "warning: reading the history read-only") {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q\nwant exit 0, %q on stdout and the read-only warning", tt.args, code, stdout, stderr, tt.out)
		}
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("export from a read-only folder wrote nothing: %v", err)
	}
	// A command that writes still fails, saying why.
	if code, _, stderr := run(t, "import", filepath.Join("..", "..", "backend", "runfile", "testdata", "good.json"), "--data-dir", dir); code != 1 || stderr == "" {
		t.Errorf("import into a read-only folder: exit %d, %q", code, stderr)
	}
}

func TestReadingCommandsWithoutAHistoryInAReadOnlyFolder(t *testing.T) {
	dir := t.TempDir()
	storetest.ReadOnly(t, dir)
	code, stdout, stderr := run(t, "runs", "--data-dir", dir)
	if code != 1 || stdout != "" || strings.Contains(stderr, "read-only (") {
		t.Errorf("runs: exit %d\nstdout %q\nstderr %q\nwant exit 1 with the writer's reason only", code, stdout, stderr)
	}
	t.Logf("runs in an empty read-only folder says: %s", stderr)
}
