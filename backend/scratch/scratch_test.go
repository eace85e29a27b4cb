package scratch

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
)

// names lists dir's entries, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestSweepRemovesOnlyWhatNobodyHolds(t *testing.T) {
	parent := t.TempDir()
	heldDir, err := Dir(parent, ".import-")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(heldDir.Path, "a.webm"), "being extracted")
	heldFile, f, err := File(parent, ".import-")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	// Debris of a killed process: a folder whose lock file nobody holds, a file whose lock
	// file is gone, a lock file alone.
	dead := filepath.Join(parent, ".import-DEAD")
	if err := os.MkdirAll(filepath.Join(dead, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, dead+lockExt, "")
	write(t, filepath.Join(parent, ".import-NOLOCK"), "orphan")
	write(t, filepath.Join(parent, ".import-ALONE.lock"), "")
	// Not ours to sweep.
	write(t, filepath.Join(parent, "run1"), "a run's media")
	write(t, filepath.Join(parent, "upload-x"), "another prefix")

	removed, err := Sweep(parent, ".import-")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(removed)
	wantRemoved := []string{filepath.Join(parent, ".import-ALONE"), dead, filepath.Join(parent, ".import-NOLOCK")}
	if !slices.Equal(removed, wantRemoved) {
		t.Errorf("Sweep removed %q, want %q", removed, wantRemoved)
	}
	want := []string{filepath.Base(heldDir.Path), filepath.Base(heldDir.Path) + lockExt,
		filepath.Base(heldFile.Path), filepath.Base(heldFile.Path) + lockExt, "run1", "upload-x"}
	sort.Strings(want)
	if got := names(t, parent); !slices.Equal(got, want) {
		t.Errorf("after the sweep %q, want %q", got, want)
	}
	if b, err := os.ReadFile(filepath.Join(heldDir.Path, "a.webm")); err != nil || string(b) != "being extracted" {
		t.Errorf("the held folder's file: %q, %v", b, err)
	}

	// Released, the folder moved into place and the file removed leave nothing to sweep.
	if err := os.Rename(heldDir.Path, filepath.Join(parent, "run2")); err != nil {
		t.Fatal(err)
	}
	if err := heldDir.Release(); err != nil {
		t.Fatal(err)
	}
	if err := heldFile.Remove(); err != nil {
		t.Fatal(err)
	}
	if removed, err := Sweep(parent, ".import-"); err != nil || len(removed) != 0 {
		t.Errorf("second Sweep removed %q, %v; want nothing", removed, err)
	}
	if got, want := names(t, parent), []string{"run1", "run2", "upload-x"}; !slices.Equal(got, want) {
		t.Errorf("in the end %q, want %q", got, want)
	}
}

func TestSweepOfAMissingFolder(t *testing.T) {
	if removed, err := Sweep(filepath.Join(t.TempDir(), "none"), ".import-"); err != nil || removed != nil {
		t.Errorf("Sweep = %q, %v; want nothing", removed, err)
	}
}

func TestHeldPathsArePrivateAndDistinct(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "tmp") // created on demand
	a, err := Dir(parent, "x-")
	if err != nil {
		t.Fatal(err)
	}
	b, f, err := File(parent, "x-")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if a.Path == b.Path {
		t.Fatalf("two held paths are both %s", a.Path)
	}
	for _, p := range []string{a.Path, b.Path} {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if perm := info.Mode().Perm(); perm&0o077 != 0 {
			t.Errorf("%s has mode %v, want private", p, perm)
		}
	}
}
