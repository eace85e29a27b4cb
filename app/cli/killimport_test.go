//go:build linux

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"observatory/app"
	"observatory/backend/store"
	"observatory/backend/store/storetest"
)

// TestAnImportKilledAtAnyMomentLeavesItsRunWholeOrNothing runs `observatory import` of a
// bundle with a 96 MiB video as a process of its own and kills it (SIGKILL) at moments
// spread over an import's length (the last ones perhaps after it ended), timed on a first, whole import. After the next start-up
// each data folder holds either the run with all its media or neither: no temporary
// folder, no lock, no media folder without its run. The store passes its integrity check.
func TestAnImportKilledAtAnyMomentLeavesItsRunWholeOrNothing(t *testing.T) {
	const video = 96 << 20
	data := bundleBytes(t, bookingRun(t, "saves-normally.webm"), map[string][]byte{"saves-normally.webm": make([]byte, video)})
	path := filepath.Join(t.TempDir(), "big.zip")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	began := time.Now()
	p := start(t, "import", path, "--data-dir", dir)
	<-p.exited
	whole := time.Since(began)
	if p.exitCode() != 0 {
		t.Fatalf("the whole import: exit %d:\n%s", p.exitCode(), p.said())
	}
	wholeOrNothing(t, dir, video)
	os.RemoveAll(dir)
	t.Logf("a whole import takes %v", whole)

	const kills = 16
	kept := 0
	for i := range kills {
		dir := t.TempDir()
		p := start(t, "import", path, "--data-dir", dir)
		time.Sleep(whole * time.Duration(i+1) / kills)
		_ = p.cmd.Process.Signal(syscall.SIGKILL) // it may have finished
		<-p.exited
		if wholeOrNothing(t, dir, video) {
			kept++
		}
		os.RemoveAll(dir)
	}
	t.Logf("%d of %d killed imports had stored their run", kept, kills)
}

// wholeOrNothing checks dir after a start-up (which settles what a killed import left):
// either no run and an empty media folder, or one run whose media folder holds its whole
// video and nothing else. It reports whether the run is there.
func wholeOrNothing(t *testing.T, dir string, video int64) bool {
	t.Helper()
	code, out, stderr := run(t, "runs", "--json", "--data-dir", dir)
	var runs []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &runs); code != 0 || err != nil || len(runs) > 1 {
		t.Fatalf("runs: exit %d, %v: %s %s", code, err, out, stderr)
	}
	if strings.Contains(stderr, "warning") {
		t.Errorf("the start-up warned: %s", stderr)
	}
	media := glob(t, app.MediaRoot(dir), "")
	storetest.Intact(t, filepath.Join(dir, store.FileName))
	if len(runs) == 0 {
		if len(media) != 0 {
			t.Errorf("no run, but the media folder holds %q", media)
		}
		return false
	}
	if !slices.Equal(media, []string{runs[0].ID}) {
		t.Errorf("run %s, but the media folder holds %q", runs[0].ID, media)
	}
	files := glob(t, filepath.Join(app.MediaRoot(dir), runs[0].ID), "")
	info, err := os.Stat(filepath.Join(app.MediaRoot(dir), runs[0].ID, "saves-normally.webm"))
	if err != nil || info.Size() != video || !slices.Equal(files, []string{"saves-normally.webm"}) {
		t.Errorf("run %s's media folder holds %q (%v)", runs[0].ID, files, err)
	}
	return true
}
