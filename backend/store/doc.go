// Package store keeps Observatory's run history in SQLite through GORM: runs, attempts, steps,
// app events and media paths, written as a run progresses so that a process killed mid-run
// leaves everything up to its last step. The database opens in WAL mode and migrates itself;
// a run still marked running when the database is opened again is shown as interrupted.
package store
