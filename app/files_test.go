package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"observatory/backend/agent"
)

// fakeDialogs answers every save dialog with one path, and every open dialog with another,
// remembering the filter it was asked to show.
type fakeDialogs struct {
	save, open string
	filter     *FileFilter
}

func (d fakeDialogs) SaveFile(string, string) (string, error) { return d.save, nil }
func (d fakeDialogs) OpenFile(_ string, f FileFilter) (string, error) {
	if d.filter != nil {
		*d.filter = f
	}
	return d.open, nil
}

func TestSaveMediaDialogCopiesOnlyTheRunsOwnMedia(t *testing.T) {
	s, _, st := newServices(t, nil)
	run := agent.Run{ID: "run1", Task: "booking", Created: time.Now().UTC(), Status: agent.RunImported, Source: "x.zip",
		Attempts: []agent.Attempt{{Slug: "saves-normally", Terminal: agent.Completed, Config: agent.DefaultConfig(), Trace: "saves-normally.trace.zip"}}}
	if err := st.SaveImported(run); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(s.Transfer.mediaRoot, "run1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "saves-normally.trace.zip"), []byte("PK trace"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "trace.zip")
	s.Files.dialogs = fakeDialogs{save: out}

	if path, err := s.Files.SaveMediaDialog("run1", "saves-normally.trace.zip"); err != nil || path != out {
		t.Fatalf("SaveMediaDialog = %q, %v", path, err)
	}
	if b, err := os.ReadFile(out); err != nil || string(b) != "PK trace" {
		t.Errorf("saved %q, %v; want the trace's bytes", b, err)
	}
	for _, name := range []string{"../../observatory.db", "other.webm"} {
		if _, err := s.Files.SaveMediaDialog("run1", name); err == nil || !strings.Contains(err.Error(), "has no media file") {
			t.Errorf("saving %q gave %v, want a refusal", name, err)
		}
	}
}
