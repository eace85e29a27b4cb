package store

import (
	"errors"
	"testing"

	"observatory/backend/agent"
)

func TestDeleteRemovesTheRunAndEverythingBelowIt(t *testing.T) {
	s := open(t, t.TempDir())
	for _, id := range []string{"run-1", "run-2"} {
		if err := record(s, testRun(id), true); err != nil {
			t.Fatal(err)
		}
	}
	full, err := s.Delete("run-1")
	if err != nil || full != "run-1" {
		t.Fatalf("Delete: %q, %v", full, err)
	}
	if _, err := s.Get("run-1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get after Delete: %v, want ErrNotFound", err)
	}
	for table, orphans := range map[string]string{
		"attempts": "run_id NOT IN (SELECT id FROM runs)",
		"steps":    "attempt_id NOT IN (SELECT id FROM attempts)",
		"events":   "attempt_id NOT IN (SELECT id FROM attempts)",
	} {
		var n int64
		if err := s.db.Table(table).Where(orphans).Count(&n).Error; err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("%s: %d rows of the deleted run are left", table, n)
		}
	}
	if got, err := s.Get("run-2"); err != nil || len(got.Attempts) == 0 || len(got.Attempts[0].Steps) == 0 {
		t.Errorf("the other run lost rows: %+v, %v", got, err)
	}
	if _, err := s.Delete("run-1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleting it again: %v, want ErrNotFound", err)
	}
}

func TestDeleteRefusesARunningRun(t *testing.T) {
	s := open(t, t.TempDir())
	run := testRun("run-live")
	run.Status = agent.RunRunning
	if err := s.RunStarted(run); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Delete("run-live"); !errors.Is(err, ErrRunning) {
		t.Errorf("Delete of a running run: %v, want ErrRunning", err)
	}
	if _, err := s.Get("run-live"); err != nil {
		t.Errorf("the running run is gone: %v", err)
	}
}
