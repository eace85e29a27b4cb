package store

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"observatory/backend/agent"
	"observatory/backend/labs"
	"observatory/backend/runfile"
)

// TestAVersion1DatabaseUpgradesInPlace opens testdata/v1.db, written by the build before
// numbered migrations (two booking attempts run in Chromium: saves-normally, wrong-room),
// and checks that it upgrades to the latest version, reads as today's domain, re-verifies
// against today's booking lab without a disagreement, lists its steps' summaries as today's
// writers record them, and opens again unchanged.
func TestAVersion1DatabaseUpgradesInPlace(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("testdata", "v1.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), data, 0o600); err != nil {
		t.Fatal(err)
	}
	for open := 1; open <= 2; open++ {
		s := open_(t, dir)
		var versions []int
		if err := s.db.Model(&migrationRow{}).Order("version").Pluck("version", &versions).Error; err != nil {
			t.Fatal(err)
		}
		if len(versions) != len(migrations) || versions[len(versions)-1] != migrations[len(migrations)-1].version {
			t.Fatalf("open %d: applied migrations %v, want all %d", open, versions, len(migrations))
		}
		runs, err := s.List()
		if err != nil || len(runs) != 1 || runs[0].Task != "booking" || runs[0].Completed != 1 || runs[0].Wrong != 1 {
			t.Fatalf("open %d: history %+v, %v", open, runs, err)
		}
		run, err := s.Get(runs[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		// Migration 10 summarised the steps as the writers do, from the stored JSON.
		if head, err := s.Header(run.ID); err != nil || !reflect.DeepEqual(head, headerOf(run)) {
			t.Fatalf("open %d: the upgraded run's header:\n got %+v (%v)\nwant %+v", open, head, err, headerOf(run))
		}
		a := run.Attempts
		if len(a) != 2 || a[0].Params["latency_ms"] != 50 || a[0].Verdicts.Truth.Label != "saved as asked" ||
			len(a[1].Verdicts.Signals) != 2 || a[1].Verdicts.Gate.Done || a[0].Task.Name != "booking" {
			t.Fatalf("open %d: upgraded attempts = %+v", open, a)
		}
		var buf bytes.Buffer
		if err := runfile.Encode(&buf, run); err != nil {
			t.Fatal(err)
		}
		f, err := runfile.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		res, err := runfile.Verify(func(name string, _ json.RawMessage) (agent.Suite, error) { return labs.Get(name) }, f)
		if err != nil || len(res.Disagreements) != 0 {
			t.Errorf("open %d: verifying the upgraded run: %v %+v", open, err, res.Disagreements)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestANewerDatabaseIsRefused keeps a build from misreading a schema it does not know.
func TestANewerDatabaseIsRefused(t *testing.T) {
	dir := t.TempDir()
	s := open_(t, dir)
	if err := s.db.Create(&migrationRow{Version: 99, Name: "from the future"}).Error; err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(dir); err == nil || !bytes.Contains([]byte(err.Error()), []byte("newer than this build")) {
		t.Fatalf("Open = %v, want a refusal naming the newer schema", err)
	}
}

func open_(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
