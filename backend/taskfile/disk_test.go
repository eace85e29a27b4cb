package taskfile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"observatory/backend/taskfile"
)

// TestATaskWithFoldersIsJudgedAnywhere checks that the task a run file carries is rebuilt on
// a machine without the files it ran with: its uploads and downloads folders and its storage
// state are looked for when the task file loads, not when a run of it is judged.
func TestATaskWithFoldersIsJudgedAnywhere(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"in", "out"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "signed-in.json"), []byte(`{"cookies": [], "origins": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "task.yaml")
	if err := os.WriteFile(path, fmt.Appendf(nil, minimal, "uploads: in\ndownloads: out\nsession: {storage_state: signed-in.json}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := taskfile.Load(path, taskfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rebuilt, err := taskfile.FromSpec(s.Spec(), nil)
	if err != nil {
		t.Fatalf("the task of a run cannot be rebuilt away from its folders: %v", err)
	}
	if _, err := rebuilt.Start(t.Context(), rebuilt.Attempts()[0]); err == nil {
		t.Error("a task rebuilt from a run file started an attempt")
	}
}

// TestAMissingStorageStateIsRefused checks that a storage state the task names is looked for
// when it loads: a missing file, or a folder, is refused at session.storage_state.
func TestAMissingStorageStateIsRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"missing.json", "folder"} {
		path := filepath.Join(dir, "task.yaml")
		if err := os.WriteFile(path, fmt.Appendf(nil, minimal, "session: {storage_state: "+name+"}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		want := path + ": at session.storage_state: stat " + filepath.Join(dir, name) + ": no such file or directory; save the browser's storage state there"
		if name == "folder" {
			want = path + ": at session.storage_state: " + filepath.Join(dir, name) + " is not a file"
		}
		refused(t, name, func() error { _, err := taskfile.Load(path, taskfile.Options{}); return err }, want)
	}
}
