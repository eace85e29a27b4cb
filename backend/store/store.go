package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// FileName is the database's file name inside the data folder.
const FileName = "observatory.db"

// interruptedReason explains the empty terminal of an attempt whose process died.
const interruptedReason = "interrupted: the process stopped before this attempt finished"

// ErrNotFound means no run has the given id or id prefix.
var ErrNotFound = errors.New("run not found")

// ErrAmbiguous means an id prefix matches more than one run.
var ErrAmbiguous = errors.New("run id prefix is ambiguous")

// Store is the run history in one SQLite database. It is safe for concurrent use. An open
// Store is a writer: it holds a lock file in the data folder until Close, by which other
// processes sharing the folder tell its running runs from those of a dead process.
type Store struct {
	db     *gorm.DB
	writer *writerLock
}

// Open opens (creating if needed) the database in dir, in WAL mode with foreign keys on,
// migrates it, takes this Store's writer lock, and marks interrupted every running run whose
// writer is gone: its process died or closed its Store before finishing the run. Runs that
// another open Store, in this process or another, is still writing stay running.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the data folder %s: %w", dir, err)
	}
	writer, err := acquireWriter(dir)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, FileName)
	// Transactions take the write lock as they begin (IMMEDIATE): one that read first and
	// wrote after would fail at once with "database is locked" while another process writes,
	// as WAL cannot upgrade a reader whose snapshot is stale; begun immediate, it waits.
	dsn := path + "?_journal_mode=WAL&_busy_timeout=5000&_foreign_keys=on&_txlock=immediate"
	db, err := gorm.Open(sqlite.Open(dsn), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		writer.release()
		return nil, fmt.Errorf("opening the database %s: %w", path, err)
	}
	s := &Store{db: db, writer: writer}
	if err := migrate(s.db); err != nil {
		s.Close()
		return nil, fmt.Errorf("migrating the database %s: %w (move the file aside to start a fresh history)", path, err)
	}
	if err := s.interruptDeadRuns(dir); err != nil {
		s.Close()
		return nil, fmt.Errorf("opening the database %s: %w", path, err)
	}
	return s, nil
}

// Close closes the database and gives up the writer lock: runs this Store started and did not
// finish are marked interrupted by the next Open.
func (s *Store) Close() error {
	var dbErr error
	if sqlDB, err := s.db.DB(); err != nil {
		dbErr = err
	} else {
		dbErr = sqlDB.Close()
	}
	return errors.Join(dbErr, s.writer.release())
}
