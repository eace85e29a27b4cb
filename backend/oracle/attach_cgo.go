//go:build cgo

package oracle

import "github.com/mattn/go-sqlite3"

// refuseAttach allows the connection no attached database.
func refuseAttach(c *sqlite3.SQLiteConn) error {
	c.SetLimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
	return nil
}
