package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"observatory/app"
	"observatory/backend/retention"
)

func TestRunsPruneHonoursTheRetentionSetting(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"0123456789abcdef", "fedcba9876543210"} {
		r := bookingRun(t, "")
		r.ID = id
		file := filepath.Join(t.TempDir(), id+".json")
		if err := os.WriteFile(file, runFileBytes(t, r), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := run(t, "import", file, "--data-dir", dir); code != 0 {
			t.Fatalf("import %s: exit %d: %s", id, code, stderr)
		}
	}
	list := func(args ...string) ([]map[string]any, string) {
		t.Helper()
		code, out, stderr := run(t, append([]string{"runs", "--json", "--data-dir", dir}, args...)...)
		if code != 0 {
			t.Fatalf("runs %v: exit %d: %s", args, code, stderr)
		}
		var runs []map[string]any
		if err := json.Unmarshal([]byte(out), &runs); err != nil {
			t.Fatalf("runs --json printed %q: %v", out, err)
		}
		return runs, stderr
	}
	if runs, stderr := list("--prune"); len(runs) != 2 || stderr != "" {
		t.Fatalf("retention off: --prune left %d runs and said %q, want both and nothing", len(runs), stderr)
	}

	set := app.DefaultSettings()
	set.Retention = retention.Policy{KeepLast: 1}
	b, err := json.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if runs, _ := list(); len(runs) != 2 {
		t.Fatalf("runs without --prune deleted something: %d runs left", len(runs))
	}
	before, _ := list()
	runs, stderr := list("--prune")
	if len(runs) != 1 || runs[0]["source"] != "fedcba9876543210.json" {
		t.Errorf("keep the last 1: --prune left %v, want the newest import alone", runs)
	}
	if want := "deleted 1 run(s) past the retention setting: " + before[1]["id"].(string); !strings.Contains(stderr, want) {
		t.Errorf("--prune said %q, want %q", stderr, want)
	}
}
