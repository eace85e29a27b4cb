package app

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/store"
)

func TestDeleteRemovesTheRunAndItsMedia(t *testing.T) {
	s, _, st := newServices(t, nil)
	run := agent.Run{ID: "20260101-000000-abcd", Task: "booking", Created: time.Now(), Source: "shared.json"}
	if err := st.SaveImported(run); err != nil {
		t.Fatal(err)
	}
	media := filepath.Join(s.History.media, run.ID)
	if err := os.MkdirAll(media, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(media, "a.webm"), []byte("video"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.History.Delete("20260101-000000"); err != nil {
		t.Fatalf("Delete by prefix: %v", err)
	}
	if h, _ := s.History.List(); len(h) != 0 {
		t.Errorf("the history still lists %+v", h)
	}
	if _, err := os.Stat(media); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the media folder is still there: %v", err)
	}
	if err := s.History.Delete(run.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleting it again: %v, want ErrNotFound", err)
	}
}
