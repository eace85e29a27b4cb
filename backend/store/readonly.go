package store

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// ErrNoHistory means the data folder holds no database to read.
var ErrNoHistory = errors.New("no run history")

// OpenReadOnly opens the existing database in dir for reading only, for a data folder this
// process cannot write (a read-only mount, another user's folder). It takes no writer lock,
// runs no migration and marks nothing interrupted, so a run whose process died still reads
// as running until a writer opens the folder. Writes through it fail. It refuses, wrapping
// ErrNoHistory, a folder without a database.
//
// SQLite reads a database in WAL mode through its -shm index, which a read-only folder
// cannot hold unless it is there already; when it is not, and no -wal file holds commits the
// database file lacks, the file is opened as immutable, which needs no index.
func OpenReadOnly(dir string) (*Store, error) {
	path, err := filepath.Abs(filepath.Join(dir, FileName))
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w in %s: %s does not exist", ErrNoHistory, dir, FileName)
	} else if err != nil {
		return nil, fmt.Errorf("opening the database %s: %w", path, err)
	}
	db, err := openReading(path, "mode=ro")
	if err != nil {
		if _, walErr := os.Stat(path + "-wal"); errors.Is(walErr, fs.ErrNotExist) {
			db, err = openReading(path, "immutable=1")
		}
	}
	if err != nil {
		return nil, fmt.Errorf("opening the database %s read-only: %w", path, err)
	}
	return &Store{db: db}, nil
}

// openReading opens the database at the absolute path with the given SQLite URI parameters
// and reads its schema once, so that a database that cannot be read fails here.
func openReading(path, params string) (*gorm.DB, error) {
	dsn := (&url.URL{Scheme: "file", Path: path, RawQuery: params + "&_busy_timeout=5000"}).String()
	db, err := gorm.Open(sqlite.Open(dsn), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		return nil, err
	}
	var tables int
	if err := db.Raw("SELECT count(*) FROM sqlite_master").Scan(&tables).Error; err != nil {
		if sqlDB, dbErr := db.DB(); dbErr == nil {
			sqlDB.Close()
		}
		return nil, err
	}
	return db, nil
}
