package cli

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"observatory/backend/ledger"
)

// TestExportWritesAnAttemptsLedger imports a run file and exports one attempt's action ledger
// as CSV: the header, then one row per step with its decision and result; bad flag
// combinations and an unknown attempt are refused and say what to do.
func TestExportWritesAnAttemptsLedger(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := run(t, "import", filepath.Join("..", "..", "backend", "runfile", "testdata", "v1-booking.json"), "--data-dir", dir)
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, errOut)
	}
	id := strings.TrimSpace(out[strings.LastIndex(out, " ")+1:])
	path := filepath.Join(dir, "ledger.csv")
	if code, _, errOut := run(t, "export", id, "--attempt", "wrong-room", "--ledger", path, "--data-dir", dir); code != 0 || !strings.Contains(errOut, "wrote "+path) {
		t.Fatalf("export --ledger: exit %d: %s", code, errOut)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6 || strings.Join(rows[0], ",") != strings.Join(ledger.Header, ",") {
		t.Fatalf("ledger rows %q: want the header and the attempt's 5 steps", rows)
	}
	for i, r := range rows[1:] {
		if r[0] != []string{"1", "2", "3", "4", "5"}[i] || r[1] == "" || r[9] == "" || r[11] == "" {
			t.Errorf("row %d %q: want the step, its intent, decision and result", i+1, r)
		}
	}
	if last := rows[5]; last[2] != "verify" || !strings.HasPrefix(last[12], "completion gate not done") {
		t.Errorf("the verify row %q: want the gate's verdict as its verification", last)
	}
	for _, tt := range []struct {
		args []string
		says string
	}{
		{[]string{"export", id, "--attempt", "wrong-room"}, "--attempt goes with --har FILE or --ledger FILE.csv"},
		{[]string{"export", id, "--attempt", "wrong-room", "--ledger", path, "-o", path}, "not both"},
		{[]string{"export", id, "--attempt", "nope", "--ledger", path}, `has no attempt "nope"`},
	} {
		if code, _, errOut := run(t, append(tt.args, "--data-dir", dir)...); code != 1 || !strings.Contains(errOut, tt.says) {
			t.Errorf("%v: exit %d, %q; want 1 saying %q", tt.args, code, errOut, tt.says)
		}
	}
}
