package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"observatory/app"
	"observatory/backend/labs"
	"observatory/backend/taskfile"
)

// badTasks is the corpus of hostile and broken task files the loader's own tests refuse.
var badTasks = filepath.Join("..", "..", "backend", "taskfile", "testdata", "bad")

// TestRunRefusesEveryBadTaskFile runs `observatory run FILE` on every file of the bad-task
// corpus, and on a file over the size limit: each is refused with exit 1 and the loader's
// located error (the field's path, or the line of what does not parse), stdout stays empty,
// and nothing is recorded: no run in the history, nothing in the media folder.
func TestRunRefusesEveryBadTaskFile(t *testing.T) {
	entries, err := os.ReadDir(badTasks)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) < 30 {
		t.Fatalf("the corpus has %d files; it lost some", len(entries))
	}
	// One file over the size limit, written here rather than kept in the corpus.
	huge := filepath.Join(t.TempDir(), "huge.yaml")
	if err := os.WriteFile(huge, []byte(strings.Repeat("#", taskfile.MaxFileSize+1)), 0o600); err != nil {
		t.Fatal(err)
	}
	paths := []string{huge}
	for _, e := range entries {
		paths = append(paths, filepath.Join(badTasks, e.Name()))
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			_, loadErr := taskfile.Load(path, taskfile.Options{LookupEnv: func(string) (string, bool) { return "", false }, Labs: labs.ForTaskFiles})
			var te *taskfile.Error
			if !errors.As(loadErr, &te) {
				t.Fatalf("the loader gives %v, not a *taskfile.Error", loadErr)
			}
			where := ""
			switch {
			case te.Path != "":
				where = "at " + te.Path + ": "
			case te.Line > 0:
				where = fmt.Sprintf("line %d: ", te.Line)
			case !strings.Contains(te.Reason, "over 1024 KiB"):
				t.Fatalf("the refusal %q names neither a field nor a line", loadErr)
			}
			dir := t.TempDir()
			code, out, errOut := run(t, "run", path, "--no-video", "--no-screenshots", "--data-dir", dir)
			if code != 1 || out != "" || !strings.Contains(errOut, safe(loadErr.Error())) || !strings.Contains(errOut, path+": "+where) {
				t.Errorf("exit %d\nstdout %q\nstderr %q\nwant exit 1, no stdout, and the refusal %q", code, out, errOut, loadErr)
			}
			nothingRecorded(t, dir)
		})
	}
}

// nothingRecorded checks that the data folder dir holds no run and no media.
func nothingRecorded(t *testing.T, dir string) {
	t.Helper()
	media, err := os.ReadDir(app.MediaRoot(dir))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	if len(media) > 0 {
		t.Errorf("the media folder holds %d entries, want none", len(media))
	}
	if code, out, errOut := run(t, "runs", "--json", "--data-dir", dir); code != 0 || strings.TrimSpace(out) != "[]" {
		t.Errorf("the history is not empty: exit %d\n%s%s", code, out, errOut)
	}
}
