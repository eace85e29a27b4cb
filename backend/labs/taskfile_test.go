package labs_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"observatory/backend/labs"
)

// TestLabsShipTheirTaskFiles checks that the task files built in are the ones beside the labs'
// code, and that a lab without one, or no lab, is refused by name.
func TestLabsShipTheirTaskFiles(t *testing.T) {
	for _, name := range []string{"booking", "checkout"} {
		got, err := labs.TaskFile(name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(name, "task.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("the %s lab's built-in task file is not its task.yaml", name)
		}
	}
	for name, want := range map[string]string{
		"canvas": "the canvas lab ships no task file; these do: booking, checkout",
		"nope":   `no lab called "nope"`,
	} {
		if _, err := labs.TaskFile(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("TaskFile(%q): %v, want %q", name, err, want)
		}
	}
}
