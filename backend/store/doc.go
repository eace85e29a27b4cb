// Package store keeps Observatory's run history in SQLite through GORM: runs, attempts, steps,
// app events and media paths, written as a run progresses so that a process killed mid-run
// leaves everything up to its last step. The database opens in WAL mode and migrates itself.
// Several processes may share the data folder: each open Store holds a lock file there, and
// Open marks a running run interrupted only when the Store that was writing it is gone.
package store
