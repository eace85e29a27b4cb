package store

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"testing"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"

	"observatory/backend/agent"
)

// helperEndEnv tells the re-executed test binary to act as a writer that holds a run open
// and, once its stdin closes, ends the way the variable says: "close" closes the Store first,
// "exit" just exits.
const helperEndEnv = "OBSERVATORY_STORE_HELPER_END"

// TestHelperHolder is not a test: run as a child of TestLiveWriterKeepsItsRunRunning, it
// records the first attempt of a run, prints "ready", waits for its stdin to close and exits
// with status 0 without finishing the run.
func TestHelperHolder(t *testing.T) {
	end := os.Getenv(helperEndEnv)
	if end == "" {
		t.Skip("helper process for TestLiveWriterKeepsItsRunRunning")
	}
	s, err := Open(os.Getenv(helperDirEnv))
	if err != nil {
		t.Fatal(err)
	}
	if err := record(s, testRun("held"), false); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("ready\n")
	io.Copy(io.Discard, os.Stdin)
	if end == "close" {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	os.Exit(0)
}

// lockFiles counts the writer lock files in the data folder dir.
func lockFiles(t *testing.T, dir string) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, writersDir, "*"+lockExt))
	if err != nil {
		t.Fatal(err)
	}
	return len(files)
}

// wantRun checks the status of run id in s and the reason of its first attempt.
func wantRun(t *testing.T, s *Store, id string, status agent.RunStatus, reason string) {
	t.Helper()
	got, err := s.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != status || got.Attempts[0].Reason != reason {
		t.Errorf("run %q: status %q, first attempt's reason %q; want %q and %q",
			id, got.Status, got.Attempts[0].Reason, status, reason)
	}
}

func TestLiveWriterKeepsItsRunRunning(t *testing.T) {
	tests := []struct {
		end       string
		staleLock int // lock files the child leaves behind
	}{
		{end: "close", staleLock: 0},
		{end: "exit", staleLock: 1},
	}
	for _, tt := range tests {
		t.Run(tt.end, func(t *testing.T) {
			dir := t.TempDir()
			cmd := helper("TestHelperHolder", dir, helperEndEnv+"="+tt.end)
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				if cmd.ProcessState == nil {
					cmd.Process.Kill()
					cmd.Wait()
				}
			})
			if line := bufio.NewScanner(out); !line.Scan() || line.Text() != "ready" {
				t.Fatalf("the child writer did not get ready: %q, %v", line.Text(), line.Err())
			}

			s, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			wantRun(t, s, "held", agent.RunRunning, "")
			if n := lockFiles(t, dir); n != 2 {
				t.Errorf("%d writer lock files while the child writes, want the child's and ours", n)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}

			stdin.Close()
			if err := cmd.Wait(); err != nil {
				t.Fatalf("child writer: %v", err)
			}
			if n := lockFiles(t, dir); n != tt.staleLock {
				t.Errorf("%d writer lock files after the child ended, want %d", n, tt.staleLock)
			}
			s, err = Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			wantRun(t, s, "held", agent.RunInterrupted, interruptedReason)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if n := lockFiles(t, dir); n != 0 {
				t.Errorf("%d writer lock files after the last Close, want none", n)
			}
		})
	}
}

func TestOpenStoreInThisProcessKeepsItsRunRunning(t *testing.T) {
	dir := t.TempDir()
	writer, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := record(writer, testRun("live"), false); err != nil {
		t.Fatal(err)
	}
	reader := open(t, dir)
	wantRun(t, reader, "live", agent.RunRunning, "")
	if err := writer.Close(); err != nil {
		t.Fatal(err)
	}
	wantRun(t, open(t, dir), "live", agent.RunInterrupted, interruptedReason)
}

func TestCloseRemovesTheWriterLock(t *testing.T) {
	tests := []struct {
		name string
		use  func(*Store) error
	}{
		{"reads only", func(s *Store) error { _, err := s.List(); return err }},
		{"records a finished run", func(s *Store) error { return record(s, testRun("f"), true) }},
		{"records an unfinished run", func(s *Store) error { return record(s, testRun("u"), false) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for cycle := range 2 {
				s, err := Open(dir)
				if err != nil {
					t.Fatal(err)
				}
				if n := lockFiles(t, dir); n != 1 {
					t.Errorf("cycle %d: %d writer lock files while open, want 1", cycle, n)
				}
				if cycle == 0 {
					if err := tt.use(s); err != nil {
						t.Fatal(err)
					}
				}
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				if n := lockFiles(t, dir); n != 0 {
					t.Errorf("cycle %d: %d writer lock files after Close, want none", cycle, n)
				}
			}
		})
	}
}

// TestOpenInterruptsRunsWithoutWriter opens a database from before writers were recorded: the
// migration adds the column and the running run, which has no writer, is interrupted.
func TestOpenInterruptsRunsWithoutWriter(t *testing.T) {
	dir := t.TempDir()
	db, err := gorm.Open(sqlite.Open(filepath.Join(dir, FileName)))
	if err != nil {
		t.Fatal(err)
	}
	err = db.Exec(`CREATE TABLE runs (id text PRIMARY KEY, lab text NOT NULL, created datetime NOT NULL,
		status text NOT NULL, source text NOT NULL);
		INSERT INTO runs VALUES ('old', 'booking', '2025-03-14 09:26:53', 'running', 'live'),
			('done', 'booking', '2025-03-14 09:26:53', 'finished', 'live')`).Error
	if err != nil {
		t.Fatal(err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		t.Fatal(err)
	}
	sqlDB.Close()

	s := open(t, dir)
	for id, want := range map[string]agent.RunStatus{"old": agent.RunInterrupted, "done": agent.RunFinished} {
		if got, err := s.Get(id); err != nil || got.Status != want {
			t.Errorf("run %q after the migration: status %q, %v; want %q", id, got.Status, err, want)
		}
	}
}
