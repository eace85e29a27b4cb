package bundle

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"observatory/backend/scratch"
)

// TestASweepSettlesAKilledImport lays out what an import killed at each stage leaves in the
// media root, its temporary folder held by nobody, and sweeps it: media whose run was stored
// move into place under the run's id, without their marker; those whose run was not, or with
// no marker, or whose run already has a media folder, are removed.
func TestASweepSettlesAKilledImport(t *testing.T) {
	root := t.TempDir()
	staged := func(name, runID string) {
		t.Helper()
		writeMedia(t, filepath.Join(root, ImportPrefix+name), map[string]string{"v.webm": name})
		if runID != "" {
			if err := os.WriteFile(filepath.Join(root, ImportPrefix+name, runMarker), []byte(runID), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(root, ImportPrefix+name+".lock"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	staged("committed", "run-1")
	staged("uncommitted", "run-2")
	staged("unmarked", "")
	staged("taken", "run-3")
	staged("escaping", "../run-1")
	writeMedia(t, filepath.Join(root, "run-3"), map[string]string{"v.webm": "theirs"})
	stored := func(id string) (bool, error) { return id == "run-1" || id == "run-3" || id == "../run-1", nil }

	if _, err := scratch.SweepSettling(root, ImportPrefix, Settle(stored)); err != nil {
		t.Fatal(err)
	}
	want := []string{"run-1", filepath.Join("run-1", "v.webm"), "run-3", filepath.Join("run-3", "v.webm")}
	if got := tree(t, root); !slices.Equal(got, want) {
		t.Errorf("after the sweep the media root holds %q, want %q", got, want)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "run-1", "v.webm")); string(b) != "committed" {
		t.Errorf("run-1's media are %q, want the committed import's", b)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "run-3", "v.webm")); string(b) != "theirs" {
		t.Errorf("run-3's media are %q, want those already there", b)
	}
}

// TestASweepRemovesTheMarkerOfAnImportKilledAfterItsMove: an import killed after its media
// moved into place but before its marker went leaves the marker in the run's folder; the
// sweep removes it and leaves the media, and an import's own folder's marker (Settle's) and
// another run's files alone.
func TestASweepRemovesTheMarkerOfAnImportKilledAfterItsMove(t *testing.T) {
	root := t.TempDir()
	write := func(parts ...string) {
		path := filepath.Join(append([]string{root}, parts...)...)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("run-a", runMarker)
	write("run-a", "a.webm")
	write(ImportPrefix+"1", runMarker)
	write("run-b", "b.webm")
	removed, err := SweepMarkers(root)
	if err != nil || !slices.Equal(removed, []string{filepath.Join(root, "run-a", runMarker)}) {
		t.Fatalf("removed %q (%v), want run-a's marker alone", removed, err)
	}
	for _, kept := range []string{filepath.Join("run-a", "a.webm"), filepath.Join(ImportPrefix+"1", runMarker), filepath.Join("run-b", "b.webm")} {
		if _, err := os.Stat(filepath.Join(root, kept)); err != nil {
			t.Errorf("%s: %v", kept, err)
		}
	}
}
