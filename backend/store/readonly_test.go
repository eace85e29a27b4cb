package store

import (
	"errors"
	"reflect"
	"testing"

	"observatory/backend/store/storetest"
)

// openReadOnly opens dir read-only, closing it when the test ends.
func openReadOnly(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestOpenReadOnlyReadsAReadOnlyFolder(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := testRun("run-1")
	if err := w.SaveImported(want); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	storetest.ReadOnly(t, dir)

	if _, err := Open(dir); err == nil {
		t.Fatal("Open as a writer succeeded in a read-only folder")
	}
	s := openReadOnly(t, dir)
	if runs, err := s.List(); err != nil || len(runs) != 1 || runs[0].ID != "run-1" {
		t.Fatalf("List = %+v, %v; want run-1", runs, err)
	}
	got, err := s.Get("run-1")
	if err != nil {
		t.Fatal(err)
	}
	want.Status = got.Status // SaveImported stores it as imported
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Get read back\n%+v\nwant\n%+v", got, want)
	}
	if err := s.SaveImported(testRun("run-2")); err == nil {
		t.Error("a read-only store saved a run")
	}
}

func TestOpenReadOnlyReadsBesideAWriter(t *testing.T) {
	dir := t.TempDir()
	w := open(t, dir)
	if err := w.SaveImported(testRun("run-1")); err != nil {
		t.Fatal(err)
	}
	s := openReadOnly(t, dir)
	if err := w.SaveImported(testRun("run-2")); err != nil {
		t.Fatal(err)
	}
	if runs, err := s.List(); err != nil || len(runs) != 2 {
		t.Errorf("List beside a live writer = %+v, %v; want both runs", runs, err)
	}
	if n := lockFiles(t, dir); n != 1 {
		t.Errorf("%d writer lock files, want only the writer's", n)
	}
}

func TestOpenReadOnlyWithoutADatabase(t *testing.T) {
	if _, err := OpenReadOnly(t.TempDir()); !errors.Is(err, ErrNoHistory) {
		t.Errorf("OpenReadOnly of an empty folder = %v, want ErrNoHistory", err)
	}
}
