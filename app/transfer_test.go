package app

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"observatory/backend/agent"
	"observatory/backend/scratch"
)

// entries lists dir's names, sorted.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, d := range des {
		names = append(names, d.Name())
	}
	slices.Sort(names)
	return names
}

// storedRun saves a small imported run and returns its id.
func storedRun(t *testing.T) (*Services, string) {
	t.Helper()
	s, _, st := newServices(t, nil)
	run := agent.Run{ID: "run1", Task: "booking", Created: time.Now().UTC(), Status: agent.RunImported, Source: "x.json",
		Attempts: []agent.Attempt{{Slug: "saves-normally", Terminal: agent.Completed, Config: agent.DefaultConfig()}}}
	if err := st.SaveImported(run); err != nil {
		t.Fatal(err)
	}
	return s, run.ID
}

// TestExportSweepsWhatAKilledExportLeftBesideItsTarget: an export killed mid-write leaves its
// temporary file beside the target, with a lock file nobody holds (or none). The next export
// to that target removes them, leaves alone the one a live export holds, and leaves only the
// target behind itself.
func TestExportSweepsWhatAKilledExportLeftBesideItsTarget(t *testing.T) {
	s, id := storedRun(t)
	dir := t.TempDir()
	target := filepath.Join(dir, "run.json")
	prefix := "." + filepath.Base(target) + partInfix
	// A killed export's leftovers: a half-written file with its (unlocked) lock, and one
	// whose lock file its process had already removed.
	for _, name := range []string{prefix + "DEAD", prefix + "DEAD.lock", prefix + "NOLOCK"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(`{"half`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	live, f, err := scratch.File(dir, prefix) // another export, still writing
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	defer live.Remove()
	other := filepath.Join(dir, ".other.json"+partInfix+"DEAD") // another target's: not this export's to judge
	if err := os.WriteFile(other, nil, 0o600); err != nil {
		t.Fatal(err)
	}

	if _, err := s.Transfer.ExportFile(id, target); err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Base(other), filepath.Base(live.Path), filepath.Base(live.Path) + ".lock", "run.json"}
	slices.Sort(want)
	if got := entries(t, dir); !slices.Equal(got, want) {
		t.Errorf("after the export the folder holds %q, want %q", got, want)
	}
	if info, err := os.Stat(target); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("the export: %v, %v; want a file others can read", info, err)
	}
}

// TestBundleDownloadsAreSpooledInTheDataFolder: a bundle written for a download lies in the
// data folder's tmp while it is sent, held, where a start-up sweep finds it if the process
// dies, and is gone once sent; a dead one is swept.
func TestBundleDownloadsAreSpooledInTheDataFolder(t *testing.T) {
	s, id := storedRun(t)
	tmpRoot := s.Transfer.tempRoot
	f, remove, err := s.Transfer.BundleFile(id)
	if err != nil {
		t.Fatal(err)
	}
	spooled := entries(t, tmpRoot)
	if len(spooled) != 2 || !slices.ContainsFunc(spooled, func(n string) bool { return n == filepath.Base(f.Name()) }) {
		t.Fatalf("while it is sent, tmp holds %q, want the bundle and its lock", spooled)
	}
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(f, info.Size())
	if err != nil || len(zr.File) == 0 || zr.File[0].Name != "run.json" {
		t.Fatalf("the spooled bundle does not read as one: %v", err)
	}
	rc, err := zr.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, rc); err != nil {
		t.Fatalf("its run file: %v", err)
	}
	// Swept while held: left alone.
	if removed, err := SweepDebris(filepath.Dir(tmpRoot), s.Transfer.store); err != nil || len(removed) != 0 {
		t.Fatalf("a sweep beside a download removed %q (%v)", removed, err)
	}
	remove()
	if left := entries(t, tmpRoot); len(left) != 0 {
		t.Errorf("after the download tmp holds %q", left)
	}
	if _, _, err := s.Transfer.BundleFile("nope"); err == nil {
		t.Error("the bundle of an unknown run was written")
	}
	if left := entries(t, tmpRoot); len(left) != 0 {
		t.Errorf("after a refused download tmp holds %q", left)
	}

	// What a process killed mid-download leaves: the file with a lock nobody holds.
	dead := filepath.Join(tmpRoot, bundlePrefix+"DEAD")
	for _, p := range []string{dead, dead + ".lock"} {
		if err := os.WriteFile(p, []byte("PK"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if removed, err := SweepDebris(filepath.Dir(tmpRoot), s.Transfer.store); err != nil || !slices.Equal(removed, []string{dead}) {
		t.Errorf("the sweep removed %q (%v), want the dead download %s", removed, err, dead)
	}
}
