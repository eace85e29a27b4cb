package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"observatory/backend/agent"
)

// FileName is the database's file name inside the data folder.
const FileName = "observatory.db"

// interruptedReason explains the empty terminal of an attempt whose process died.
const interruptedReason = "interrupted: the process stopped before this attempt finished"

// ErrNotFound means no run has the given id or id prefix.
var ErrNotFound = errors.New("run not found")

// ErrAmbiguous means an id prefix matches more than one run.
var ErrAmbiguous = errors.New("run id prefix is ambiguous")

// Store is the run history in one SQLite database. It is safe for concurrent use.
type Store struct {
	db *gorm.DB
}

// Open opens (creating if needed) the database in dir, in WAL mode with foreign keys on,
// migrates it, and marks every run still running as interrupted: a process that opens the
// database is the only writer, so such a run's process has died.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the data folder %s: %w", dir, err)
	}
	path := filepath.Join(dir, FileName)
	dsn := path + "?_journal_mode=WAL&_busy_timeout=5000&_foreign_keys=on"
	db, err := gorm.Open(sqlite.Open(dsn), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		return nil, fmt.Errorf("opening the database %s: %w", path, err)
	}
	s := &Store{db: db}
	if err := s.init(); err != nil {
		s.Close()
		return nil, fmt.Errorf("opening the database %s: %w (move the file aside to start a fresh history)", path, err)
	}
	return s, nil
}

// init migrates the schema and marks dead runs interrupted.
func (s *Store) init() error {
	if err := s.db.AutoMigrate(&runRow{}, &attemptRow{}, &stepRow{}, &eventRow{}, &mediaRow{}); err != nil {
		return fmt.Errorf("migrating: %w", err)
	}
	return s.db.Transaction(func(tx *gorm.DB) error {
		running := tx.Model(&runRow{}).Select("id").Where("status = ?", agent.RunRunning)
		if err := tx.Model(&attemptRow{}).Where("run_id IN (?) AND terminal = ''", running).
			Update("reason", interruptedReason).Error; err != nil {
			return fmt.Errorf("marking unfinished attempts interrupted: %w", err)
		}
		if err := tx.Model(&runRow{}).Where("status = ?", agent.RunRunning).
			Update("status", agent.RunInterrupted).Error; err != nil {
			return fmt.Errorf("marking unfinished runs interrupted: %w", err)
		}
		return nil
	})
}

// Close closes the database.
func (s *Store) Close() error {
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}
