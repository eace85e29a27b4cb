package storetest

import (
	"database/sql"
	"testing"

	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver
)

// Intact fails t unless the SQLite database at path passes PRAGMA integrity_check: what a
// store must still do after a crash, a kill or a stopped server.
func Intact(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var integrity string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&integrity); err != nil || integrity != "ok" {
		t.Errorf("PRAGMA integrity_check of %s = %q, %v; want ok", path, integrity, err)
	}
}
