package mariadbtest

import (
	"database/sql"
	"os"
	"testing"
)

func TestStartGivesAWorkingDatabaseAndRemovesIt(t *testing.T) {
	var dir string
	t.Run("server", func(t *testing.T) {
		db, err := sql.Open("mysql", Start(t))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var n int
		if err := db.QueryRow("select 40 + 2").Scan(&n); err != nil || n != 42 {
			t.Fatalf("select 40 + 2 = %d, %v", n, err)
		}
		if err := db.QueryRow("select @@datadir").Scan(&dir); err != nil {
			t.Fatal(err)
		}
	})
	if dir == "" {
		return // skipped
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the server's data folder %s is still there (%v)", dir, err)
	}
}
