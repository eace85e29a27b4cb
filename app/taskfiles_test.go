package app

import (
	"bytes"
	"path/filepath"
	"testing"

	"observatory/backend/labs"
	"observatory/backend/taskfile"
)

// TestLabTaskFilesAreTheFilesOnDisk checks that the task file a lab ships, read from the
// binary (run --lab NAME --task-file), is the task its file on disk gives.
func TestLabTaskFilesAreTheFilesOnDisk(t *testing.T) {
	for _, name := range []string{"booking", "checkout"} {
		built, err := LabTaskFile(name)
		if err != nil {
			t.Fatal(err)
		}
		disk, err := LoadTaskFile(filepath.Join("..", "backend", "labs", name, "task.yaml"), taskfile.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(built.Spec, disk.Spec) || len(built.Suite.Attempts()) != len(disk.Suite.Attempts()) {
			t.Errorf("the %s lab's built-in task file is not its task.yaml:\n%s\n%s", name, built.Spec, disk.Spec)
		}
		if _, ok := built.Suite.(labs.Hosted); !ok { // taskfile cannot say so: it knows no labs
			t.Errorf("the %s lab's task file is no labs.Hosted, so --lab-host would not move its app", name)
		}
	}
	if _, err := LabTaskFile("canvas"); err == nil {
		t.Error("the canvas lab, which ships no task file, gave one")
	}
}
