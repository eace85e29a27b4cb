package pgtest

import (
	"context"
	"database/sql"
	"os"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
)

func TestStartGivesAWorkingDatabaseAndRemovesIt(t *testing.T) {
	var dir string
	t.Run("cluster", func(t *testing.T) {
		dsn := Start(t)
		db, err := sql.Open("pgx", dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var n int
		if err := db.QueryRowContext(context.Background(), "select 40 + 2").Scan(&n); err != nil || n != 42 {
			t.Fatalf("select 40 + 2 = %d, %v", n, err)
		}
		if err := db.QueryRow("select setting from pg_settings where name = 'data_directory'").Scan(&dir); err != nil {
			t.Fatal(err)
		}
	})
	if dir == "" {
		return // skipped
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the cluster's data folder %s is still there (%v)", dir, err)
	}
}
