//go:build !cgo

package oracle

import "github.com/mattn/go-sqlite3"

// refuseAttach has nothing to limit: without cgo, go-sqlite3 opens no database at all.
func refuseAttach(*sqlite3.SQLiteConn) error { return nil }
