package taskfile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"observatory/backend/taskfile"
)

// TestAnSQLEvidenceBoundIsCheckedAtItsPath loads an sql condition with its own evidence
// bound, and refuses one out of range at its path.
func TestAnSQLEvidenceBoundIsCheckedAtItsPath(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.db"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	const task = `schema: observatory.task/v1
name: t
intent: Do it.
start_url: http://127.0.0.1:8080/
success:
  - id: ok
    sql: {driver: sqlite, path: app.db, query: select 1 as n, evidence_kib: %d, expr: size(rows) == 1}
`
	path := filepath.Join(dir, "t.yaml")
	load := func(kib int) error {
		if err := os.WriteFile(path, fmt.Appendf(nil, task, kib), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := taskfile.Load(path, taskfile.Options{})
		return err
	}
	if err := load(512); err != nil {
		t.Errorf("evidence_kib 512: %v", err)
	}
	refused(t, path, func() error { return load(2048) }, path+": at success[0].sql.evidence_kib: 2048: want 1 to 1024")
}
